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
  public var mesh: Mesh
  /// The stage's prims as named nodes, where their origins are.
  public var namedNodes: [NamedNode]
  /// The package's images the materials name (`cube.usdz#0/texture.png`), encoded.
  public var embeddedImages: [String: [UInt8]]
  /// Prims and meshes in the layer, and the stage's units.
  public var prims: Int, meshes: Int
  /// The stage's `metersPerUnit` and `upAxis` (`Y` or `Z`), as authored or by USD's fallbacks.
  public var metersPerUnit: Double, upAxis: String
  /// The stage's bounds as USD's tools compute them (`UsdGeomBBoxCache`): each mesh's authored
  /// `extent` (its points where it has none) through its transforms, metres, +Y up. An exporter
  /// that writes a stale extent makes these differ from the points' bounds.
  public var declaredBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?

  /// Reads a USDZ package's (or a `.usdc` file's) `bytes`, from `path`.
  ///
  /// - Throws: ``USDError`` naming the file, the zip entry, crate section or prim, and why.
  public init(bytes: [UInt8], path: String) throws(USDError) {
    var root = ArraySlice(bytes), rootName = ""
    var files: [String: ArraySlice<UInt8>] = [:]
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      let archive = try USDZArchive(bytes, path: path)
      (root, rootName) = (archive.entries[0].bytes, archive.entries[0].name)
      for entry in archive.entries.dropFirst() { files[entry.name] = entry.bytes }
    }
    let layer = try Self.layer(root, path: rootName.isEmpty ? path : "\(path)[\(rootName)]")
    let composed = try layer.composed { (name) throws(USDError) -> USDLayer? in
      let key = name.hasPrefix("./") ? String(name.dropFirst(2)) : name
      guard let bytes = files[key] else { return nil }
      return try Self.layer(bytes, path: "\(path)[\(key)]")
    }
    var stage = USDStageReader(composed)
    stage.packageFiles = files
    self.path = path
    (mesh, namedNodes, embeddedImages, declaredBounds) = try stage.build()
    prims = stage.primCount
    meshes = stage.meshCount
    metersPerUnit = stage.metersPerUnit
    upAxis = stage.upAxis
  }

  /// A layer's opinions from its bytes: text (`#usda`) or binary (`PXR-USDC`).
  static func layer(_ bytes: ArraySlice<UInt8>, path: String) throws(USDError) -> USDLayer {
    if USDTextLayer.isText(bytes) { return try USDTextLayer.read(bytes, path: path) }
    return try USDLayer(crate: USDCrate(Array(bytes), path: path))
  }
}
