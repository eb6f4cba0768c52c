import ARFiles
import ARMath

/// A glTF 2.0 asset (`.gltf` or `.glb`) read whole: its default scene's node tree flattened into
/// one renderable mesh in the asset's frame (metres, +Y up, as glTF defines it), its materials,
/// its named nodes, and the images its materials name.
public struct GLTFAsset: Sendable {
  /// The file read.
  public var path: String
  /// Whether it came as a GLB.
  public var isBinary: Bool
  /// Every mesh instance of the default scene, triangulated, in the asset's frame.
  public var mesh: Mesh { didSet { assembledBounds = nil } }
  /// The bounds of ``mesh``'s vertices as its assembly found them (the asset's frame, metres);
  /// nil once the mesh is changed, or for an empty one.
  var assembledBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
  /// Each named node of the default scene and where its origin is in the asset's frame.
  public var namedNodes: [NamedNode]
  /// The encoded images (PNG, JPEG) the materials name that are inside the asset (a GLB's
  /// binary chunk, a `data:` URI), by the texture path the materials use (`Box.glb#/images/0`).
  public var embeddedImages: [String: [UInt8]]
  /// What was read but not used (points and lines, an optional extension ARScene ignores).
  public var warnings: [String]
  /// Counts of the document's nodes, meshes, materials, animations and skins.
  public var counts: (nodes: Int, meshes: Int, materials: Int, animations: Int, skins: Int)

  /// Extensions ARScene reads, or may ignore without changing the geometry.
  static let understood: Set<String> = [
    "KHR_mesh_quantization", "KHR_texture_transform", "KHR_materials_unlit",
    "KHR_materials_emissive_strength", "EXT_mesh_gpu_instancing",
    // Images in KTX2 (ETC1S and UASTC drawn, other codings left out with a warning) and WebP;
    // AVIF and DDS images are left out with a warning (or their texture's core image drawn).
    // The commands that need no texture, stats and rays, are never refused for an image.
    "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif", "MSFT_texture_dds",
  ]

  /// ``understood`` and the compression extensions whose decoders are registered now.
  static var understoodNow: Set<String> {
    var names = understood
    if GLTFCompression.meshopt != nil {
      names.formUnion(["EXT_meshopt_compression", "KHR_meshopt_compression"])
    }
    if GLTFCompression.draco != nil { names.insert("KHR_draco_mesh_compression") }
    return names
  }

  /// Reads the asset in `bytes`, read from `path`.
  ///
  /// - Throws: ``GLTFError`` naming the file, the JSON pointer and why: a required extension
  ///   ARScene does not support, an index out of range, an accessor past its buffer, a cycle in
  ///   the node graph, a missing buffer file.
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - path: Where they came from (buffer and image files are found beside it).
  ///   - time: Seconds into the first animation to pose the asset at (its nodes animated, its
  ///     skinned meshes skinned, its morph targets weighted as animated); nil for the static
  ///     scene, where skinned meshes are drawn unskinned at their nodes, as glTF importers that
  ///     do not animate (trimesh) draw them.
  public init(bytes: [UInt8], path: String, time: Double? = nil) throws(GLTFError) {
    let container = try GLTFContainer(bytes: bytes, path: path)
    let document = container.document
    var warnings: [String] = []
    let understood = Self.understoodNow
    for name in document.extensionsUsed ?? [] where !understood.contains(name) {
      warnings.append("\(path): extension \(name) is used but not required; read without it")
    }
    var builder = try GLTFMeshBuilder(container: container, time: time)
    try builder.build()
    self.path = path
    isBinary = container.isBinary
    (mesh, assembledBounds) = builder.assembled()
    namedNodes = builder.namedNodes
    embeddedImages = builder.embeddedImages
    self.warnings = warnings + builder.warnings
    counts = (
      document.nodes?.count ?? 0, document.meshes?.count ?? 0, document.materials?.count ?? 0,
      document.animations?.count ?? 0, document.skins?.count ?? 0
    )
  }

  /// Reads the asset at `path`.
  ///
  /// - Throws: ``GLTFError`` (an unreadable file is one too, with no pointer).
  public static func load(path: String, time: Double? = nil) throws(GLTFError) -> GLTFAsset {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch {
      throw GLTFError(path: path, pointer: "", reason: error.reason)
    }
    return try GLTFAsset(bytes: bytes, path: path, time: time)
  }
}
