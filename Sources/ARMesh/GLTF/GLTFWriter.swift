import ARFiles
import Foundation

/// Writes a model as glTF 2.0: a GLB (JSON and binary chunks) or a `.gltf` with its buffer in a
/// `data:` URI. One mesh node (translated by the mesh's origin, so far-away models keep their
/// precision) with a primitive a submesh, each with the submesh's own vertices (POSITION with
/// its bounds, NORMAL, TEXCOORD_0 with glTF's top-left origin, COLOR_0) and 32-bit indices; a
/// material a material (base colour and alpha from the diffuse colour and opacity, emissive,
/// roughness from the shininess, metallic 0; textures embedded); each named empty node as an
/// empty node at its place.
public struct GLTFWriter {
  /// The model written.
  public let asset: ModelAsset
  /// Reads a texture file the materials name (embedded images come with the asset).
  public var readFile: (String) -> [UInt8]? = { try? FileIO.read($0) }

  /// A writer of `asset`.
  public init(_ asset: ModelAsset) { self.asset = asset }

  /// The asset as GLB bytes.
  public func glb() throws(GLTFError) -> [UInt8] {
    let (document, binary) = try build(embedBuffer: false)
    return Self.glbContainer(json: Array(try Self.encode(document, path: asset.path)), binary: binary)
  }

  /// The GLB container of a JSON document and a binary buffer: the header, the JSON chunk
  /// padded with spaces and the binary chunk (when not empty) padded with zeros.
  static func glbContainer(json document: [UInt8], binary: [UInt8]) -> [UInt8] {
    var json = document
    while json.count % 4 != 0 { json.append(0x20) }
    var bin = binary
    while bin.count % 4 != 0 { bin.append(0) }
    var out: [UInt8] = []
    func word(_ x: Int) { withUnsafeBytes(of: UInt32(x).littleEndian) { out += $0 } }
    out += Array("glTF".utf8)
    word(2)
    word(12 + 8 + json.count + (bin.isEmpty ? 0 : 8 + bin.count))
    word(json.count)
    out += Array("JSON".utf8) + json
    if !bin.isEmpty {
      word(bin.count)
      out += [0x42, 0x49, 0x4E, 0x00] + bin
    }
    return out
  }

  /// The asset as `.gltf` JSON, its buffer a `data:` URI.
  public func gltf() throws(GLTFError) -> [UInt8] {
    let (document, _) = try build(embedBuffer: true)
    return Array(try Self.encode(document, path: asset.path)) + [0x0A]
  }

  private static func encode(_ document: [String: Any], path: String) throws(GLTFError) -> Data {
    do { return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]) } catch {
      throw GLTFError(path: path, pointer: "", reason: "cannot write the glTF JSON: \(error)")
    }
  }

  /// The document and its binary buffer.
  private func build(embedBuffer: Bool) throws(GLTFError) -> ([String: Any], [UInt8]) {
    var buffer = GLTFBufferBuilder()
    let mesh = asset.mesh
    var primitives: [[String: Any]] = []
    for submesh in mesh.submeshes where !submesh.triangles.isEmpty {
      primitives.append(buffer.primitive(of: mesh, submesh))
    }
    var images: [[String: Any]] = [], textures: [[String: Any]] = []
    let materials: [[String: Any]] = try mesh.materials.map { material throws(GLTFError) in
      var pbr: [String: Any] = [
        "baseColorFactor": [material.diffuse.x, material.diffuse.y, material.diffuse.z, material.opacity].map(
          Double.init),
        "metallicFactor": 0.0,
        // The inverse of the reader's shininess = 2/α² − 2 with α = roughness².
        "roughnessFactor": Swift.min(
          1, Swift.max(0, (2 / (Double(material.shininess) + 2)).squareRoot().squareRoot())),
      ]
      // A metallic-roughness material (glTF's, USD's) keeps its own factors.
      if let factors = material.metallicRoughness {
        (pbr["metallicFactor"], pbr["roughnessFactor"]) = (
          Double(factors.metallic), Double(factors.roughness)
        )
      }
      if let texture = material.diffuseTexture {
        let bytes = asset.embeddedImages[texture.path] ?? readFile(texture.path)
        guard let bytes else {
          throw GLTFError(path: asset.path, pointer: "", reason: "texture '\(texture.path)' cannot be read")
        }
        let view = buffer.append(bytes)
        // A KTX2 or WebP image (read through its extension) goes back through the extension.
        guard let kind = EncodedImageKind(bytes) else {
          throw GLTFError(path: texture.path, pointer: "", reason: EncodedImageKind.unknownReason)
        }
        images.append(["bufferView": view, "mimeType": kind.mimeType])
        if let textureExtension = kind.gltfTextureExtension {
          textures.append(["extensions": [textureExtension: ["source": images.count - 1]]])
        } else {
          textures.append(["source": images.count - 1])
        }
        pbr["baseColorTexture"] = ["index": textures.count - 1]
      }
      var entry: [String: Any] = ["name": material.name, "pbrMetallicRoughness": pbr]
      if material.emissive != .zero {
        entry["emissiveFactor"] = [material.emissive.x, material.emissive.y, material.emissive.z].map(
          Double.init)
      }
      // The material's own alpha mode (a glTF's, a USD's), else blending below full opacity.
      switch material.alphaMode {
      case .blend?: entry["alphaMode"] = "BLEND"
      case .mask(let cutoff)?: (entry["alphaMode"], entry["alphaCutoff"]) = ("MASK", Double(cutoff))
      case .opaque?: break
      case nil: if material.opacity < 1 { entry["alphaMode"] = "BLEND" }
      }
      if material.isDoubleSided { entry["doubleSided"] = true }
      // Drawn as it is, whatever the lights (a glTF's unlit material, RealityKit's, MaterialX's).
      if material.isUnlit { entry["extensions"] = ["KHR_materials_unlit": [String: Any]()] }
      return entry
    }
    var nodes: [[String: Any]] = [["name": "mesh", "mesh": 0]]
    let o = mesh.origin
    if o != .zero { nodes[0]["translation"] = [o.x, o.y, o.z] }
    for node in asset.namedNodes where node.isMarker {
      nodes.append(["name": node.name, "translation": [node.position.x, node.position.y, node.position.z]])
    }
    var document: [String: Any] = [
      "asset": ["version": "2.0", "generator": "ARScene"], "scene": 0,
      "scenes": [["nodes": Array(nodes.indices)]], "nodes": nodes,
      "meshes": [["primitives": primitives]], "materials": materials,
      "accessors": buffer.accessors, "bufferViews": buffer.views,
    ]
    if !images.isEmpty {
      document["images"] = images
      document["textures"] = textures
    }
    // The texture extensions written, required: no core image stands in for their images.
    let used = Set(textures.flatMap { ($0["extensions"] as? [String: Any])?.keys.map { $0 } ?? [] }).sorted()
    if !used.isEmpty { document["extensionsRequired"] = used }
    // Unlit materials fall back to their PBR factors where a viewer does not know the extension.
    let unlit = asset.mesh.materials.contains(where: \.isUnlit) ? ["KHR_materials_unlit"] : []
    if !used.isEmpty || !unlit.isEmpty { document["extensionsUsed"] = (used + unlit).sorted() }
    if !buffer.bytes.isEmpty {
      var entry: [String: Any] = ["byteLength": buffer.bytes.count]
      if embedBuffer {
        entry["uri"] = "data:application/octet-stream;base64," + Data(buffer.bytes).base64EncodedString()
      }
      document["buffers"] = [entry]
    }
    return (document, buffer.bytes)
  }
}

/// The binary buffer of a glTF being written, its buffer views and accessors.
struct GLTFBufferBuilder {
  var bytes: [UInt8] = []
  var views: [[String: Any]] = []
  var accessors: [[String: Any]] = []

  /// Appends `data` as a buffer view (4-byte aligned) and returns its index.
  mutating func append(_ data: [UInt8]) -> Int {
    while bytes.count % 4 != 0 { bytes.append(0) }
    views.append(["buffer": 0, "byteOffset": bytes.count, "byteLength": data.count])
    bytes += data
    return views.count - 1
  }

  /// Appends floats as an accessor of `type`, with `min`/`max` when asked (POSITION needs them).
  mutating func floats(_ values: [Float], type: String, components: Int, bounds: Bool = false) -> Int {
    var data: [UInt8] = []
    data.reserveCapacity(values.count * 4)
    for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { data += $0 } }
    var accessor: [String: Any] = [
      "bufferView": append(data), "componentType": 5126, "count": values.count / components, "type": type,
    ]
    if bounds, !values.isEmpty {
      accessor["min"] = (0..<components).map { c in
        Double(stride(from: c, to: values.count, by: components).map { values[$0] }.min()!)
      }
      accessor["max"] = (0..<components).map { c in
        Double(stride(from: c, to: values.count, by: components).map { values[$0] }.max()!)
      }
    }
    accessors.append(accessor)
    return accessors.count - 1
  }

  /// One submesh as a primitive with its own vertices (the reader turns each primitive's
  /// vertices into the mesh's, so a primitive carries only those its triangles use).
  mutating func primitive(of mesh: Mesh, _ submesh: Mesh.Submesh) -> [String: Any] {
    var remap: [UInt32: UInt32] = [:], order: [Int] = [], indices: [UInt32] = []
    for t in submesh.triangles {
      for k in 0..<3 {
        let v = mesh.indices[3 * t + k]
        if remap[v] == nil {
          remap[v] = UInt32(order.count)
          order.append(Int(v))
        }
        indices.append(remap[v]!)
      }
    }
    var attributes: [String: Int] = [
      "POSITION": floats(
        order.flatMap { [mesh.positions[$0].x, mesh.positions[$0].y, mesh.positions[$0].z] }, type: "VEC3",
        components: 3, bounds: true),
      "NORMAL": floats(
        order.flatMap { [mesh.normals[$0].x, mesh.normals[$0].y, mesh.normals[$0].z] }, type: "VEC3",
        components: 3),
    ]
    if !mesh.texcoords.isEmpty {
      attributes["TEXCOORD_0"] = floats(
        order.flatMap { [mesh.texcoords[$0].x, 1 - mesh.texcoords[$0].y] }, type: "VEC2", components: 2)
    }
    if !mesh.colors.isEmpty {
      attributes["COLOR_0"] = floats(
        order.flatMap { [mesh.colors[$0].x, mesh.colors[$0].y, mesh.colors[$0].z] }, type: "VEC3",
        components: 3)
    }
    var data: [UInt8] = []
    for i in indices { withUnsafeBytes(of: i.littleEndian) { data += $0 } }
    accessors.append([
      "bufferView": append(data), "componentType": 5125, "count": indices.count, "type": "SCALAR",
    ])
    return ["attributes": attributes, "indices": accessors.count - 1, "material": submesh.material]
  }
}
