import ARFiles
import ARMath
import RealModule

/// A USDZ package (or a `.usdc` or `.usda` layer) read as a model: every `Mesh` prim of the
/// root layer (text or binary) with the prims it references inside the package, placed by its
/// own and its ancestors' transform ops (every kind, in `xformOpOrder`; an op that cannot be
/// applied is an error), its polygons triangulated as fans; the
/// stage turned into ARScene's frame: metres by `metersPerUnit` (USD's fallback is 0.01, the
/// centimetre) and a Z-up stage turned Y-up.
public struct USDAsset: Sendable {
  /// The file read.
  public var path: String
  /// Every mesh of the stage in one, in ARScene's frame (metres, Y up).
  public var mesh: Mesh { didSet { (assembledBounds, survey) = (nil, nil) } }
  /// The bounds of ``mesh``'s vertices as its assembly found them (the asset's frame, metres);
  /// nil once the mesh is changed, or for an empty one.
  var assembledBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
  /// Read without assembling the mesh (``mesh`` empty): the counts of its vertices and
  /// triangles; nil otherwise.
  var survey: (vertices: Int, triangles: Int)?
  /// The stage's prims as named nodes, where their origins are.
  public var namedNodes: [NamedNode]
  /// The package's images the materials name (`cube.usdz#0/texture.png`), encoded.
  public var embeddedImages: [String: [UInt8]]
  /// What was read but not drawn as authored (hidden surfaces, materials without a
  /// `UsdPreviewSurface`), one line each.
  public var warnings: [String]
  /// For a stage that draws nothing, what it has instead (its prims and their types); nil
  /// otherwise.
  public var contents: String?
  /// Prims in the layer and the surfaces drawn, and the stage's units.
  public var prims: Int, meshes: Int
  /// The stage's `metersPerUnit` and `upAxis` (`Y` or `Z`), as authored or by USD's fallbacks.
  public var metersPerUnit: Double, upAxis: String
  /// The stage's bounds as USD's tools compute them (`UsdGeomBBoxCache`): each mesh's authored
  /// `extent` (its points where it has none) through its transforms, metres, +Y up. An exporter
  /// that writes a stale extent makes these differ from the points' bounds.
  public var declaredBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?

  /// Reads a USDZ package's (or a `.usdc` file's) `bytes`, from `path`, its transforms at
  /// `time` seconds (the stage's time code `time × timeCodesPerSecond`, 24 a second unless the
  /// stage says otherwise), or at the default time without one (each attribute's default, or
  /// its first sample). Round implicit shapes stray at most `tolerance` metres from their
  /// surfaces (1 mm when nil).
  ///
  /// - Throws: ``USDError`` naming the file, the zip entry, crate section or prim, and why.
  public init(bytes: [UInt8], path: String, time: Double? = nil, tolerance: Double? = nil) throws(USDError) {
    try self.init(bytes: bytes, path: path, time: time, tolerance: tolerance, assembling: true)
  }

  /// ``init(bytes:path:time:tolerance:)``, and without `assembling` the mesh left empty: its
  /// counts in ``survey``, the bounds its assembly would find in ``assembledBounds``.
  init(bytes: [UInt8], path: String, time: Double?, tolerance: Double?, assembling: Bool) throws(USDError) {
    let (composed, files) = try Self.package(ArraySlice(bytes), path: path)
    var stage = USDStageReader(composed)
    stage.packageFiles = files
    if !bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { stage.folderFile = Self.fileBeside(path) }
    stage.timeCode = time.map { $0 * stage.timeCodesPerSecond }
    stage.tolerance = tolerance ?? USDImplicitShapes.defaultTolerance
    self.path = path
    let built = try stage.build(assembling: assembling)
    (mesh, namedNodes, embeddedImages, declaredBounds) = (
      built.mesh, built.nodes, built.images, built.declaredBounds
    )
    (assembledBounds, survey) = (built.assembledBounds, built.survey)
    warnings = built.warnings
    if built.surfaces == 0 {
      let listed = stage.prims.prefix(8).map { "\($0.path) (\($0.type.isEmpty ? "no type" : $0.type))" }
      contents =
        stage.prims.isEmpty
        ? "the stage has no prims"
        : "its \(stage.prims.count) prim\(stage.prims.count == 1 ? "" : "s") (\(listed.joined(separator: ", "))"
          + "\(stage.prims.count > 8 ? ", …" : "")) include no mesh or implicit shape that is drawn"
    }
    prims = stage.primCount
    meshes = built.surfaces
    metersPerUnit = stage.metersPerUnit
    upAxis = stage.upAxis
  }

  /// A reader of the files a bare layer at `layer` names (its textures), confined to its folder
  /// or an allowed folder (``FileReferences``); a name written with Windows' backslashes
  /// (`.\textures\wood.png`, as Blender on Windows writes it) is read with slashes where the
  /// name as written is not there. The names come anchored (``USDLayer/anchored(_:)``): joined
  /// to the folder of the layer that wrote them as that layer was opened, so relative to the
  /// working directory, not to `layer`'s folder (`models/chair.usda` naming
  /// `textures/wood.png` asks for `models/textures/wood.png`, which was once looked for in
  /// `models/models/textures`).
  static func fileBeside(_ layer: String) -> @Sendable (String) -> Result<[UInt8], USDError> {
    let folder = PathNames.folder(of: layer)
    return { name in
      var tried: [String] = [name]
      if name.contains("\\") { tried.append(name.replacingOccurrences(of: "\\", with: "/")) }
      var failure = USDError(path: layer, place: "textures", reason: "no such file")
      for candidate in tried {
        do {
          let path = try FileReferences.resolve(
            candidate, inFolder: "", confinedTo: folder, referencedBy: layer)
          return .success(try FileIO.read(path))
        } catch let error as ReferenceError {
          failure = USDError(path: layer, place: "textures", reason: error.reason)
        } catch let error as FileIOError {
          failure = USDError(path: layer, place: "textures", reason: error.reason)
        } catch {
          failure = USDError(path: layer, place: "textures", reason: "\(error)")
        }
      }
      return .failure(failure)
    }
  }

  /// How deep packages may nest in packages (Reality Composer Pro nests one or two).
  static let maximumNesting = 4

  /// A package's layer `entry` (its first, the root, by default), or a bare layer, with its
  /// references composed from the package's files; and those files, with the files of the
  /// packages nested in it, each named from the outermost package (``USDPackagePaths``: a
  /// nested package's `0/wood.png` is `parts.usdz[0/wood.png]`), and for a bare layer those of
  /// the packages it names. A reference into a package in the package is a layer of its own
  /// (`@./parts.usdz@`) or one of its files (`@./parts.usdz[arm.usdc]@`, USD's package-relative
  /// path). `enclosing` names the packages this one is nested in (``USDPackagePaths/enclosing``).
  static func package(
    _ bytes: ArraySlice<UInt8>, path: String, entry: String? = nil, depth: Int = 0, enclosing: [String] = []
  ) throws(USDError) -> (USDLayer, [String: ArraySlice<UInt8>]) {
    guard bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
      // A bare layer's references, payloads and sublayers are files in its folder.
      let beside = USDFolderLayers(root: path)
      let composed = try layer(bytes, path: path).composed { name, from throws(USDError) in
        try beside.layer(name, from: from)
      }
      return (composed, beside.packageFiles)
    }
    guard depth <= maximumNesting else {
      throw USDError(path: path, place: "zip", reason: "packages nested more than \(maximumNesting) deep")
    }
    let archive = try USDZArchive(bytes, path: path)
    var files: [String: ArraySlice<UInt8>] = [:]
    for file in archive.entries { files[file.name] = file.bytes }
    let rootName = entry ?? archive.entries[0].name
    guard files[rootName] != nil else {
      throw USDError(path: path, place: "zip", reason: "no file \(rootName.prefix(60)) in the package")
    }
    let paths = USDPackagePaths(members: files.keys, root: rootName, enclosing: enclosing)
    var all = Dictionary(uniqueKeysWithValues: files.map { (paths.qualified($0.key), $0.value) })
    /// The layer `name` names, written by the layer at `from` (the root entry for none): a
    /// layer, a nested package, or a nested package's file (`parts.usdz[arm.usdc]`).
    func load(_ name: String, from: String = "") throws(USDError) -> USDLayer? {
      let (outer, inner) = USDPackagePaths.split(name)
      let writer = from.isEmpty ? "" : USDPackagePaths.memberName(of: from)
      guard let key = from.isEmpty ? outer : paths.member(outer, writtenBy: writer), let bytes = files[key]
      else { return nil }
      let place = "\(path)[\(key)]"
      guard bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
        guard inner == nil else { throw USDError(path: place, place: "zip", reason: "not a package") }
        return try layer(bytes, path: place, packagePaths: paths)
      }
      let (layer, innerFiles) = try package(
        bytes, path: place, entry: inner, depth: depth + 1, enclosing: enclosing + [key])
      all.merge(innerFiles) { first, _ in first }
      return layer
    }
    // The root entry: a layer, or itself a package (what load reads either way).
    guard let first = try load(rootName) else {
      throw USDError(path: path, place: "zip", reason: "no file \(rootName.prefix(60)) in the package")
    }
    let rooted = try first.composed { name, from throws(USDError) in try load(name, from: from) }
    return (rooted, all)
  }

  /// A layer's opinions from its bytes: text (`#usda`) or binary (`PXR-USDC`), its variant
  /// sets unresolved (composition picks them, a referencing prim's selections first);
  /// `packagePaths` for a package's member.
  static func layer(
    _ bytes: ArraySlice<UInt8>, path: String, packagePaths: USDPackagePaths? = nil
  ) throws(USDError) -> USDLayer {
    if USDTextLayer.isText(bytes) {
      return try USDTextLayer.read(bytes, path: path, packagePaths: packagePaths)
    }
    // Another format named as a layer (an `.obj`, an `.abc`): USD reads it only through a
    // file-format plugin; said so, not as a damaged binary layer.
    // A package's member is named `package.usdz[member]`.
    let member = USDPackagePaths.memberName(of: path)
    let name = (member.isEmpty ? path : member).split(separator: "/").last ?? ""
    // Bytes, not Foundation's substring search (14 µs, 4% of reading a 6 MB layer on one thread).
    let suffix =
      name.utf8.contains(UInt8(ascii: "."))
      ? name.split(separator: ".").last.map { $0.lowercased() } ?? "" : ""
    if !bytes.starts(with: Array("PXR-USDC".utf8)), !suffix.isEmpty,
      !["usd", "usda", "usdc", "usdz"].contains(suffix)
    {
      throw USDError(
        path: path, place: "",
        reason:
          "not a USD layer: a .\(suffix) file, which USD reads only through a file-format plugin ARScene does not have"
      )
    }
    return try USDLayer(crate: USDCrate(bytes, path: path), packagePaths: packagePaths)
  }
}
