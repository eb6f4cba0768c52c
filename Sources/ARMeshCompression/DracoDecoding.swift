import ARMesh
import CDraco

/// `KHR_draco_mesh_compression` through Google's Draco (Debian's libdraco): call
/// ``register()`` once, and Draco-compressed glTF files load everywhere ARScene takes a model.
public enum DracoDecoding {
  /// Why a Draco mesh cannot be decoded.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Registers the decoder with ARMesh's glTF reader.
  public static func register() {
    GLTFCompression.register(draco: { request in try decode(request) })
  }

  /// The triangles and requested attributes of the Draco mesh in `request.source`.
  package static func decode(_ request: GLTFCompression.DracoRequest) throws -> GLTFCompression.DracoMesh {
    var message = [CChar](repeating: 0, count: 256)
    let decoded = request.source.withUnsafeBufferPointer { bytes in
      ardraco_decode(bytes.baseAddress, bytes.count, &message, message.count)
    }
    guard let decoded else {
      let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw Failure(description: "not a valid Draco mesh (\(reason.isEmpty ? "Draco says nothing" : reason))")
    }
    defer { ardraco_free(decoded) }
    let points = ardraco_points(decoded), faces = ardraco_faces(decoded)
    guard points <= 1 << 28, faces <= 1 << 28 else {
      throw Failure(description: "\(points) points and \(faces) faces are too many")
    }
    var indices = [UInt32](repeating: 0, count: 3 * faces)
    indices.withUnsafeMutableBufferPointer { ardraco_indices(decoded, $0.baseAddress) }
    var attributes: [String: [Double]] = [:]
    for (name, wanted) in request.attributes {
      var values = [Float](repeating: 0, count: points * wanted.components)
      let status = values.withUnsafeMutableBufferPointer {
        ardraco_attribute(
          decoded, Int32(clamping: wanted.id), Int32(clamping: wanted.components), $0.baseAddress)
      }
      switch status {
      case 0: attributes[name] = values.map(Double.init)
      case -1: throw Failure(description: "\(name): no Draco attribute with id \(wanted.id)")
      default:
        throw Failure(
          description: "\(name): the Draco attribute has fewer than \(wanted.components) components")
      }
    }
    return GLTFCompression.DracoMesh(indices: indices, attributes: attributes, points: points)
  }
}
