import Foundation

@testable import ARMesh

/// A small glTF asset written in a test: a JSON document and one binary buffer, as a GLB or as
/// a `.gltf` with a `data:` URI.
struct GLTFTestAsset {
  var json: [String: Any]
  var binary: [UInt8] = []

  /// Appends little-endian floats (or other values) to the buffer, 4-byte aligned, and returns
  /// their byte offset.
  mutating func append(floats: [Float]) -> Int {
    align()
    let offset = binary.count
    for f in floats { withUnsafeBytes(of: f.bitPattern.littleEndian) { binary += $0 } }
    return offset
  }

  mutating func append(bytes: [UInt8]) -> Int {
    align()
    let offset = binary.count
    binary += bytes
    return offset
  }

  mutating func append(uint16s: [UInt16]) -> Int {
    align()
    let offset = binary.count
    for v in uint16s { withUnsafeBytes(of: v.littleEndian) { binary += $0 } }
    return offset
  }

  private mutating func align() { while binary.count % 4 != 0 { binary.append(0) } }

  /// The asset as a GLB: header, JSON chunk (space-padded), binary chunk (zero-padded).
  var glb: [UInt8] {
    var document = json
    var buffers = document["buffers"] as? [[String: Any]] ?? []
    if buffers.isEmpty && !binary.isEmpty { buffers = [["byteLength": binary.count]] }
    document["buffers"] = buffers.isEmpty ? nil : buffers
    let text = Array(try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
    return GLTFWriter.glbContainer(json: text, binary: binary)
  }

  /// The asset as `.gltf` JSON with the buffer in a `data:` URI.
  var gltf: [UInt8] {
    var document = json
    if !binary.isEmpty {
      document["buffers"] = [
        [
          "byteLength": binary.count,
          "uri": "data:application/octet-stream;base64," + Data(binary).base64EncodedString(),
        ]
      ]
    }
    return Array(try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]))
  }

  /// A unit right triangle in the x-y plane (floats), with one node and one mesh: the base
  /// other tests change.
  static func triangle() -> GLTFTestAsset {
    var asset = GLTFTestAsset(json: [:])
    let offset = asset.append(floats: [0, 0, 0, 1, 0, 0, 0, 1, 0])
    asset.json = [
      "asset": ["version": "2.0"], "scene": 0, "scenes": [["nodes": [0]]],
      "nodes": [["mesh": 0, "name": "tri"]],
      "meshes": [["primitives": [["attributes": ["POSITION": 0]]]]],
      "accessors": [["bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"]],
      "bufferViews": [["buffer": 0, "byteOffset": offset, "byteLength": 36]],
    ]
    return asset
  }

  func load(_ bytes: [UInt8], name: String = "test.glb") throws(GLTFError) -> GLTFAsset {
    try GLTFAsset(bytes: bytes, path: name)
  }
}
