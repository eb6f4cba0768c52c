import ARMesh
import CMeshopt

/// `EXT_meshopt_compression` through meshoptimizer's own decoders (Debian's libmeshoptimizer):
/// call ``register()`` once, and glTF files compressed by gltfpack and other meshopt encoders
/// load everywhere ARScene takes a model.
public enum MeshoptDecoding {
  /// Why a compressed view cannot be decoded.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// Registers the decoder with ARMesh's glTF reader.
  public static func register() {
    GLTFCompression.register(meshopt: { view in try decode(view) })
  }

  /// The `count × stride` bytes `view` decodes to, its filter applied.
  package static func decode(_ view: GLTFCompression.MeshoptView) throws -> [UInt8] {
    let (count, stride) = (view.count, view.stride)
    guard count >= 0, count <= 1 << 28, stride >= 1, stride <= 256, count * stride <= 1 << 30 else {
      throw Failure(description: "\(count) elements of \(stride) bytes are out of range")
    }
    var out = [UInt8](repeating: 0, count: count * stride)
    let status: Int32 = out.withUnsafeMutableBytes { destination in
      view.source.withUnsafeBufferPointer { source in
        switch view.mode {
        case "ATTRIBUTES":
          guard stride % 4 == 0 else { return -100 }
          return meshopt_decodeVertexBuffer(
            destination.baseAddress, count, stride, source.baseAddress, source.count)
        case "TRIANGLES":
          guard stride == 2 || stride == 4, count % 3 == 0 else { return -100 }
          return meshopt_decodeIndexBuffer(
            destination.baseAddress, count, stride, source.baseAddress, source.count)
        case "INDICES":
          guard stride == 2 || stride == 4 else { return -100 }
          return meshopt_decodeIndexSequence(
            destination.baseAddress, count, stride, source.baseAddress, source.count)
        default: return -101
        }
      }
    }
    switch status {
    case 0: break
    case -100: throw Failure(description: "byteStride \(stride) does not suit mode \(view.mode)")
    case -101: throw Failure(description: "'\(view.mode.prefix(40))' is not ATTRIBUTES, TRIANGLES or INDICES")
    default: throw Failure(description: "the compressed data is not valid (meshoptimizer says \(status))")
    }
    try applyFilter(view.filter, to: &out, count: count, stride: stride)
    return out
  }

  private static func applyFilter(_ filter: String, to out: inout [UInt8], count: Int, stride: Int) throws {
    let suits: Bool
    switch filter {
    case "NONE": return
    case "OCTAHEDRAL": suits = stride == 4 || stride == 8
    case "QUATERNION": suits = stride == 8
    case "EXPONENTIAL": suits = stride % 4 == 0
    default: throw Failure(description: "'\(filter.prefix(40))' is not a meshopt filter")
    }
    guard suits else { throw Failure(description: "filter \(filter) does not suit byteStride \(stride)") }
    out.withUnsafeMutableBytes { buffer in
      switch filter {
      case "OCTAHEDRAL": meshopt_decodeFilterOct(buffer.baseAddress, count, stride)
      case "QUATERNION": meshopt_decodeFilterQuat(buffer.baseAddress, count, stride)
      default: meshopt_decodeFilterExp(buffer.baseAddress, count, stride)
      }
    }
  }
}
