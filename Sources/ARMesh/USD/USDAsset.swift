import ARMath
import RealModule

/// A USDZ package (or a binary `.usdc` layer) read as a model: every `Mesh` prim of the root
/// layer, placed by its own and its ancestors' transform ops (`xformOp:transform`, `translate`,
/// `rotateXYZ`, `orient`, `scale`, in `xformOpOrder`), its polygons triangulated as fans; the
/// stage turned into ARScene's frame: metres by `metersPerUnit` (USD's fallback is 0.01, the
/// centimetre) and a Z-up stage turned Y-up.
public struct USDAsset: Sendable {
  public var path: String
  public var mesh: Mesh
  public var namedNodes: [NamedNode]
  /// The package's images the materials name (`cube.usdz#0/texture.png`), encoded.
  public var embeddedImages: [String: [UInt8]]
  /// Prims and meshes in the layer, and the stage's units.
  public var prims: Int, meshes: Int
  public var metersPerUnit: Double, upAxis: String
  /// The stage's bounds as USD's tools compute them (`UsdGeomBBoxCache`): each mesh's authored
  /// `extent` (its points where it has none) through its transforms, metres, +Y up. An exporter
  /// that writes a stale extent makes these differ from the points' bounds.
  public var declaredBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?

  /// Reads a USDZ package's (or a `.usdc` file's) `bytes`, from `path`.
  ///
  /// - Throws: ``USDError`` naming the file, the zip entry, crate section or prim, and why.
  public init(bytes: [UInt8], path: String) throws(USDError) {
    var layer = bytes
    var files: [String: ArraySlice<UInt8>] = [:]
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      let archive = try USDZArchive(bytes, path: path)
      let root = archive.entries[0]
      guard root.name.lowercased().hasSuffix(".usdc") || root.bytes.starts(with: Array("PXR-USDC".utf8))
      else {
        throw USDError(
          path: path, place: root.name,
          reason: "the root layer is text USD (.usda), which ARScene does not read yet")
      }
      layer = Array(root.bytes)
      for entry in archive.entries.dropFirst() { files[entry.name] = entry.bytes }
    }
    let crate = try USDCrate(layer, path: path)
    var stage = try USDStageReader(crate)
    stage.packageFiles = files
    self.path = path
    (mesh, namedNodes, embeddedImages, declaredBounds) = try stage.build()
    prims = stage.primCount
    meshes = stage.meshCount
    metersPerUnit = stage.metersPerUnit
    upAxis = stage.upAxis
  }
}
