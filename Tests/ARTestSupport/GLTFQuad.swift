import Foundation

/// A glTF file of one 2-by-2-metre quad facing +z, centred on the origin: what material tests
/// draw. Its texture coordinates run from 0 to `uvRange` (glTF's: v down the image, so an image
/// is drawn upright), its node is turned by the quaternion `rotation` (x, y, z, w), and it has
/// `material` and one texture per image URI (each through sampler 0, whose wrap is `wrap` in both
/// directions). With `secondSet`, those coordinates are its `TEXCOORD_1`, and `TEXCOORD_0` puts
/// every corner at (0.25, 0.5).
public enum GLTFQuad {
  public static func json(
    material: String, imageURIs: [String] = [], wrap: Int = 33071, uvRange: Float = 1,
    rotation: [Double] = [0, 0, 0, 1], secondSet: Bool = false
  ) -> String {
    var bytes: [UInt8] = []
    func append(_ values: [Float]) {
      for x in values { withUnsafeBytes(of: x.bitPattern.littleEndian) { bytes += $0 } }
    }
    append([-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0])
    let spanning: [Float] = [0, uvRange, uvRange, uvRange, uvRange, 0, 0, 0]
    append(secondSet ? [0.25, 0.5, 0.25, 0.5, 0.25, 0.5, 0.25, 0.5] : spanning)
    for i: UInt16 in [0, 1, 2, 0, 2, 3] { withUnsafeBytes(of: i.littleEndian) { bytes += $0 } }
    if secondSet { append(spanning) }
    let images = imageURIs.map { #"{"uri": "\#($0)"}"# }
    let textures = imageURIs.indices.map { #"{"source": \#($0), "sampler": 0}"# }
    let buffer = "data:application/octet-stream;base64," + Data(bytes).base64EncodedString()
    return """
      {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0, "rotation": \(rotation)}],
       "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1\(secondSet ? #", "TEXCOORD_1": 3"# : "")}, "indices": 2, "material": 0}]}],
       "materials": [\(material)],
       "textures": [\(textures.joined(separator: ","))], "images": [\(images.joined(separator: ","))],
       "samplers": [{"magFilter": 9729, "wrapS": \(wrap), "wrapT": \(wrap)}],
       "buffers": [{"byteLength": \(bytes.count), "uri": "\(buffer)"}],
       "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 32},
         {"buffer": 0, "byteOffset": 80, "byteLength": 12}\(secondSet ? #", {"buffer": 0, "byteOffset": 92, "byteLength": 32}"# : "")],
       "accessors": [
         {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, 0], "max": [1, 1, 0]},
         {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
         {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}\(secondSet ? #", {"bufferView": 3, "componentType": 5126, "count": 4, "type": "VEC2"}"# : "")]}
      """
  }
}
