/// The JSON of a glTF 2.0 asset as the specification defines it (only what ARScene reads; other
/// members, `extras` and unknown extensions are ignored, as the specification asks). Indices
/// refer into the document's arrays; ``GLTFAsset`` validates them as it builds the mesh.
struct GLTFDocument: Decodable, Sendable {
  var asset: Asset
  var scene: Int?
  var scenes: [SceneJSON]?
  var nodes: [Node]?
  var meshes: [MeshJSON]?
  var accessors: [Accessor]?
  var bufferViews: [BufferView]?
  var buffers: [Buffer]?
  var materials: [MaterialJSON]?
  var textures: [Texture]?
  var samplers: [Sampler]?
  var images: [Image]?
  var animations: [Animation]?
  var skins: [Skin]?
  var extensionsUsed: [String]?
  var extensionsRequired: [String]?

  struct Asset: Decodable, Sendable {
    var version: String
    var generator: String?
    var minVersion: String?
  }

  struct SceneJSON: Decodable, Sendable {
    var nodes: [Int]?
    var name: String?
  }

  struct Node: Decodable, Sendable {
    var name: String?
    var children: [Int]?
    var mesh: Int?
    var skin: Int?
    var matrix: [Double]?
    var translation: [Double]?
    var rotation: [Double]?
    var scale: [Double]?
    var weights: [Double]?
    var extensions: NodeExtensions?
  }

  struct NodeExtensions: Decodable, Sendable {
    var instancing: GPUInstancing?
    enum CodingKeys: String, CodingKey { case instancing = "EXT_mesh_gpu_instancing" }
  }

  /// `EXT_mesh_gpu_instancing`: the node's mesh drawn once an instance, each placed by its own
  /// translation, rotation and scale (accessors, one element an instance) within the node.
  struct GPUInstancing: Decodable, Sendable {
    var attributes: [String: Int]
  }

  struct MeshJSON: Decodable, Sendable {
    var name: String?
    var primitives: [Primitive]
    var weights: [Double]?
  }

  struct Primitive: Decodable, Sendable {
    var attributes: [String: Int]
    var indices: Int?
    var material: Int?
    var mode: Int?
    var targets: [[String: Int]]?
    var extensions: PrimitiveExtensions?
  }

  struct Animation: Decodable, Sendable {
    var name: String?
    var channels: [Channel]
    var samplers: [AnimationSampler]

    struct Channel: Decodable, Sendable {
      var sampler: Int
      var target: Target
    }

    struct Target: Decodable, Sendable {
      var node: Int?
      var path: String
    }
  }

  struct AnimationSampler: Decodable, Sendable {
    var input: Int
    var output: Int
    var interpolation: String?
  }

  struct Skin: Decodable, Sendable {
    var inverseBindMatrices: Int?
    var skeleton: Int?
    var joints: [Int]
  }

  struct PrimitiveExtensions: Decodable, Sendable {
    var draco: Draco?

    /// `KHR_draco_mesh_compression`: the buffer view of the compressed mesh, and each glTF
    /// attribute's Draco unique id.
    struct Draco: Decodable, Sendable {
      var bufferView: Int
      var attributes: [String: Int]
    }
    enum CodingKeys: String, CodingKey { case draco = "KHR_draco_mesh_compression" }
  }

  struct Accessor: Decodable, Sendable {
    var bufferView: Int?
    var byteOffset: Int?
    var componentType: Int
    var normalized: Bool?
    var count: Int
    var type: String
    var sparse: Sparse?
  }

  struct Sparse: Decodable, Sendable {
    var count: Int
    var indices: SparseIndices
    var values: SparseValues

    struct SparseIndices: Decodable, Sendable {
      var bufferView: Int
      var byteOffset: Int?
      var componentType: Int
    }

    struct SparseValues: Decodable, Sendable {
      var bufferView: Int
      var byteOffset: Int?
    }
  }

  struct BufferView: Decodable, Sendable {
    var buffer: Int
    var byteOffset: Int?
    var byteLength: Int
    var byteStride: Int?
    var extensions: BufferViewExtensions?
  }

  struct BufferViewExtensions: Decodable, Sendable {
    var meshopt: MeshoptView?
    var khrMeshopt: MeshoptView?
    enum CodingKeys: String, CodingKey {
      case meshopt = "EXT_meshopt_compression", khrMeshopt = "KHR_meshopt_compression"
    }
  }

  /// A buffer view's meshopt-compressed source: where its compressed bytes are and what they
  /// decode to.
  struct MeshoptView: Decodable, Sendable {
    var buffer: Int
    var byteOffset: Int?
    var byteLength: Int
    var byteStride: Int
    var count: Int
    var mode: String
    var filter: String?
  }

  struct Buffer: Decodable, Sendable {
    var uri: String?
    var byteLength: Int
    var extensions: BufferExtensions?
  }

  struct BufferExtensions: Decodable, Sendable {
    var meshopt: Fallback?
    var khrMeshopt: Fallback?
    enum CodingKeys: String, CodingKey {
      case meshopt = "EXT_meshopt_compression", khrMeshopt = "KHR_meshopt_compression"
    }

    /// A buffer that only stands in for compressed views (`fallback`: no data need be there).
    struct Fallback: Decodable, Sendable {
      var fallback: Bool?
    }

    var isFallback: Bool { meshopt?.fallback == true || khrMeshopt?.fallback == true }
  }

  struct MaterialJSON: Decodable, Sendable {
    var name: String?
    var pbrMetallicRoughness: PBR?
    var normalTexture: TextureInfo?
    var occlusionTexture: TextureInfo?
    var emissiveTexture: TextureInfo?
    var emissiveFactor: [Double]?
    var alphaMode: String?
    var alphaCutoff: Double?
    var doubleSided: Bool?
    var extensions: MaterialExtensions?
  }

  struct PBR: Decodable, Sendable {
    var baseColorFactor: [Double]?
    var baseColorTexture: TextureInfo?
    var metallicFactor: Double?
    var roughnessFactor: Double?
    var metallicRoughnessTexture: TextureInfo?
  }

  struct MaterialExtensions: Decodable, Sendable {
    var unlit: Ignored?
    var emissiveStrength: EmissiveStrength?

    struct EmissiveStrength: Decodable, Sendable {
      var emissiveStrength: Double?
    }

    enum CodingKeys: String, CodingKey {
      case unlit = "KHR_materials_unlit"
      case emissiveStrength = "KHR_materials_emissive_strength"
    }
  }

  struct TextureInfo: Decodable, Sendable {
    var index: Int
    var texCoord: Int?
    /// A normal map's scale on X and Y.
    var scale: Double?
    /// An occlusion map's strength, 0 to 1.
    var strength: Double?
    var extensions: TextureInfoExtensions?
  }

  struct TextureInfoExtensions: Decodable, Sendable {
    var transform: TextureTransform?
    enum CodingKeys: String, CodingKey { case transform = "KHR_texture_transform" }
  }

  /// `KHR_texture_transform`: texture coordinates scaled, then rotated (radians,
  /// counter-clockwise in UV space), then offset.
  struct TextureTransform: Decodable, Sendable, Equatable {
    var offset: [Double]?
    var rotation: Double?
    var scale: [Double]?
    var texCoord: Int?
  }

  struct Texture: Decodable, Sendable {
    var sampler: Int?
    var source: Int?
    var extensions: TextureExtensions?
  }

  /// A texture's image in an extension: `KHR_texture_basisu`'s KTX2 file, `EXT_texture_webp`'s
  /// WebP file.
  struct TextureExtensions: Decodable, Sendable {
    struct Source: Decodable, Sendable { var source: Int? }
    var basisu: Source?
    var webp: Source?

    enum CodingKeys: String, CodingKey {
      case basisu = "KHR_texture_basisu"
      case webp = "EXT_texture_webp"
    }
  }

  /// A texture sampler: wrap modes (10497 repeat, 33071 clamp to edge, 33648 mirrored repeat)
  /// and filters.
  struct Sampler: Decodable, Sendable {
    var wrapS: Int?
    var wrapT: Int?
    var magFilter: Int?
    var minFilter: Int?
  }

  struct Image: Decodable, Sendable {
    var uri: String?
    var bufferView: Int?
    var mimeType: String?
    var name: String?
  }

  /// A member whose content ARScene does not read (only that it is there).
  struct Ignored: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
  }
}
