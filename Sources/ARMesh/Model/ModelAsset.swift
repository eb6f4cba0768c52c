import ARFiles
import ARMath

/// A 3-D model file as every command takes one: OBJ (with its MTL libraries), glTF 2.0, GLB, or
/// USDZ (and `.usdc` and `.usda` layers), told apart by content, not by name. A file that is none of them (an image, a scene's JSON,
/// an empty file) is an error, never an empty model.
public struct ModelAsset: Sendable {
  /// The formats ARScene tells apart.
  public enum Format: String, Sendable, Codable {
    /// The file's format: OBJ text, glTF JSON, binary GLB, a USDZ package, a binary or a text USD layer.
    case obj, gltf, glb, usdz, usdc, usda
  }

  /// The file read.
  public var path: String
  /// What the file is, by its content.
  public var format: Format
  /// The renderable mesh in the model's frame (metres; glTF's +Y up).
  public var mesh: Mesh { didSet { (assembledBounds, survey) = (nil, nil) } }
  /// Named nodes (glTF) and their origins in the model's frame: tap targets an asset carries.
  public var namedNodes: [NamedNode]
  /// Encoded images inside the file, by the texture path its materials name.
  public var embeddedImages: [String: [UInt8]]
  /// Everything read but not used, one line each.
  public var warnings: [String]
  /// Counts of the file's nodes, meshes, materials and animations (an OBJ: its objects, 1,
  /// its materials, 0).
  public var counts: (nodes: Int, meshes: Int, materials: Int, animations: Int)
  /// Bounds the file itself declares, where its format's tools go by them rather than by the
  /// vertices (USD's authored extents), in the model's frame, metres; nil otherwise.
  public var declaredBounds: (min: SIMD3<Double>, max: SIMD3<Double>)? = nil
  /// Why the model has no triangles to draw (what the file holds instead), nil when it has.
  public var noGeometry: String? = nil
  /// The bounds of ``mesh``'s vertices as a glTF's or USD's assembly found them (the model's
  /// frame, metres), so that ``geometryBounds`` takes no pass over them; nil once the mesh is
  /// changed, and for OBJ.
  var assembledBounds: (min: SIMD3<Double>, max: SIMD3<Double>)? = nil
  /// Loaded for its statistics alone (a USD stage's mesh not assembled, ``mesh`` empty): the
  /// counts of the mesh's vertices and triangles; nil for a model loaded whole.
  var survey: (vertices: Int, triangles: Int)? = nil
  /// The vertices and triangles of the mesh, assembled or not.
  var vertexCount: Int { survey?.vertices ?? mesh.vertexCount }
  var triangleCount: Int { survey?.triangles ?? mesh.triangleCount }

  /// The format `bytes` are in, by their first bytes: a GLB's magic, a zip (USDZ), a JSON
  /// object with an `asset` (glTF); nil for what can only be OBJ text.
  public static func sniff(_ bytes: [UInt8]) -> Format? {
    if bytes.starts(with: GLTFContainer.glbMagic) { return .glb }
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .usdz }
    if bytes.starts(with: Array("PXR-USDC".utf8)) { return .usdc }
    if USDTextLayer.isText(ArraySlice(bytes)) { return .usda }
    let text = TextBytes.droppingUTF8BOM(bytes)
    let first = text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if first == UInt8(ascii: "{"), containsBytes(text.prefix(1 << 16), Array("\"asset\"".utf8)) {
      return .gltf
    }
    return nil
  }

  private static func containsBytes(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    var i = haystack.startIndex
    while i + needle.count <= haystack.endIndex {
      if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return true }
      i += 1
    }
    return false
  }

  /// Loads the model at `path`: one without triangles (a stage of empty prims, a glTF of
  /// cameras, lights or points) loads with a warning saying what it holds, for ``requiringGeometry()``.
  ///
  /// - Parameters:
  ///   - path: The model file.
  ///   - lenient: For OBJ, a missing MTL library, material or texture is a warning (see
  ///     ``OBJAsset/load(path:lenient:)``).
  ///   - time: For glTF, seconds into the first animation to pose the model at (see
  ///     ``GLTFAsset/init(bytes:path:time:)``); for USD, the stage's transforms at that time (see
  ///     ``USDAsset/init(bytes:path:time:tolerance:)``); nil for the static scene.
  ///   - tolerance: For USD, metres a round implicit shape may stray from its surface (1 mm
  ///     when nil).
  /// - Throws: ``ModelError`` naming the file and, for glTF, the JSON pointer.
  public static func load(
    path: String, lenient: Bool = false, time: Double? = nil, tolerance: Double? = nil
  ) throws(ModelError) -> ModelAsset {
    try load(path: path, lenient: lenient, time: time, tolerance: tolerance, assembling: true)
  }

  /// ``load(path:lenient:time:tolerance:)``; without `assembling`, a USD stage's mesh is left
  /// empty (its counts in ``survey``), for ``ModelStatistics`` alone.
  static func load(
    path: String, lenient: Bool, time: Double?, tolerance: Double?, assembling: Bool
  ) throws(ModelError) -> ModelAsset {
    var model = try read(
      path: path, lenient: lenient, time: time, tolerance: tolerance, assembling: assembling)
    try model.requireFiniteBounds()
    if model.triangleCount == 0 {
      let holds =
        model.noGeometry
        ?? "its \(model.counts.nodes) nodes and \(model.counts.meshes) meshes hold no triangles"
      model.noGeometry = holds
      model.warnings.append("\(path): no drawable geometry: \(holds)")
    }
    return model
  }

  /// The model, or an error saying what the file holds instead of triangles: for commands that
  /// draw, convert or hit-test it, which would otherwise write an empty image or file.
  public func requiringGeometry() throws(ModelError) -> ModelAsset {
    guard let noGeometry else { return self }
    throw .notAModel(path: path, reason: "no drawable geometry: " + noGeometry)
  }

  private static func read(
    path: String, lenient: Bool, time: Double?, tolerance: Double?, assembling: Bool
  ) throws(ModelError) -> ModelAsset {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    switch sniff(bytes) {
    case .glb?, .gltf?:
      let asset: GLTFAsset
      do { asset = try GLTFAsset(bytes: bytes, path: path, time: time) } catch { throw .gltf(error) }
      return ModelAsset(
        path: path, format: asset.isBinary ? .glb : .gltf, mesh: asset.mesh, namedNodes: asset.namedNodes,
        embeddedImages: asset.embeddedImages, warnings: asset.warnings,
        counts: (asset.counts.nodes, asset.counts.meshes, asset.counts.materials, asset.counts.animations),
        assembledBounds: asset.assembledBounds)
    case .usdz?, .usdc?, .usda?:
      let asset: USDAsset
      do {
        asset = try USDAsset(
          bytes: bytes, path: path, time: time, tolerance: tolerance, assembling: assembling)
      } catch { throw .usd(error) }
      var model = ModelAsset(
        path: path, format: sniff(bytes)!, mesh: asset.mesh, namedNodes: asset.namedNodes,
        embeddedImages: asset.embeddedImages, warnings: asset.warnings,
        counts: (asset.prims, asset.meshes, 1, 0),
        declaredBounds: asset.declaredBounds, assembledBounds: asset.assembledBounds, survey: asset.survey)
      model.noGeometry = asset.contents
      if let declared = asset.declaredBounds, let points = model.geometryBounds {
        let size = Swift.max((points.max - points.min).max(), 1e-9)
        let apart = (0..<3).map { k in
          Swift.max(abs(declared.min[k] - points.min[k]), abs(declared.max[k] - points.max[k]))
        }.max()!
        if apart > 1e-4 * size + 1e-6 {
          model.warnings.append(
            "\(path): USD's bounds (the meshes' authored extents, a SkelRoot's estimate from its joints) "
              + "(\(Self.describe(declared))) disagree with the points drawn (\(Self.describe(points))); "
              + "bounds report USD's, the renderer draws the points")
        }
      } else if asset.declaredBounds == nil, let points = model.geometryBounds {
        model.warnings.append(
          "\(path): USD's bounds are empty (every drawn mesh's authored extent has its minimum past its "
            + "maximum, an empty box to BBoxCache); bounds report the points drawn (\(Self.describe(points)))"
        )
      }
      return model
    case nil, .obj?:
      // Text has no NUL byte; an image, an archive or a binary mesh of another kind has.
      if bytes.prefix(1 << 16).contains(0) {
        throw .notAModel(path: path, reason: "binary data: neither OBJ, glTF nor GLB")
      }
      let asset: OBJAsset
      do { asset = try OBJAsset.load(bytes: bytes, path: path, lenient: lenient) } catch { throw .obj(error) }
      guard !asset.model.positions.isEmpty else {
        throw .notAModel(path: path, reason: "no vertices: not an OBJ model (nor glTF, GLB)")
      }
      var model = ModelAsset(
        path: path, format: .obj, mesh: asset.mesh, namedNodes: [], embeddedImages: [:],
        warnings: asset.warnings.map(\.description),
        counts: (Swift.max(1, asset.model.objectNames.count), 1, asset.libraryMaterials.count, 0))
      if model.mesh.triangleCount == 0 {
        model.noGeometry =
          "its \(asset.model.positions.count) vertices form no face (points and lines are not drawn)"
      }
      return model
    }
  }
}

extension ModelAsset {
  /// The bounds of the mesh's vertices in the model's frame, metres; nil for an empty mesh.
  public var geometryBounds: (min: SIMD3<Double>, max: SIMD3<Double>)? {
    guard vertexCount > 0, survey == nil || assembledBounds != nil else { return nil }
    // A mesh not assembled is stored from the origin its assembly would choose.
    let origin = survey == nil ? mesh.origin : GLTFGeometry.origin(for: assembledBounds)
    // Each vertex is stored as its offset from the origin rounded to `Float`, and rounding keeps
    // order: the assembly's extremes, rounded so, are the box a pass over the vertices finds.
    let box =
      assembledBounds.map {
        AxisAlignedBox(min: SIMD3<Float>($0.min - origin), max: SIMD3<Float>($0.max - origin))
      } ?? mesh.bounds
    return (origin + SIMD3<Double>(box.min), origin + SIMD3<Double>(box.max))
  }

  /// Throws unless the vertices, placed by their transforms, and the bounds USD declares are
  /// finite: finite points can overflow through a transform (a hostile file's scale of 10³⁰⁸)
  /// or lie past what a `Float` offset from the model's centre holds, and a mesh of such
  /// vertices would draw nothing, hit nothing and report bounds no JSON can hold.
  fileprivate func requireFiniteBounds() throws(ModelError) {
    for (what, box) in [
      ("its vertices, placed by their transforms,", geometryBounds), ("its bounds", declaredBounds),
    ] {
      guard let box, ![box.min, box.max].allFinite else { continue }
      throw .notAModel(
        path: path,
        reason: "\(what) reach past what a vertex holds (\(Float.greatestFiniteMagnitude) m from the model's "
          + "centre), or overflow: \(Self.describe(box))")
    }
  }

  fileprivate static func describe(_ box: (min: SIMD3<Double>, max: SIMD3<Double>)) -> String {
    func point(_ p: SIMD3<Double>) -> String { "[\(p.x), \(p.y), \(p.z)]" }
    return "\(point(box.min)) to \(point(box.max)) m"
  }
}

/// Why a model file cannot be loaded.
public enum ModelError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file cannot be read, or is none of the formats.
  case unreadable(path: String, reason: String)
  /// An OBJ's error.
  case obj(OBJError)
  /// A glTF's or GLB's error.
  case gltf(GLTFError)
  /// A USD package's or layer's error.
  case usd(USDError)
  /// A format ARScene recognises but does not read.
  case unsupported(path: String, reason: String)
  /// Not a model at all.
  case notAModel(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .obj(let error): error.description
    case .gltf(let error): error.description
    case .usd(let error): error.description
    case .unsupported(let path, let reason), .notAModel(let path, let reason): "\(path): \(reason)"
    }
  }
}
