import Foundation

/// Decoders of compressed glTF geometry that live outside ARMesh (its core stays free of C
/// libraries): a module at the edge registers them once, and every glTF read after that
/// understands the extension. Without one, a file that requires the extension is an error
/// naming it.
public enum GLTFCompression {
  /// What an `EXT_meshopt_compression` buffer view asks for: its compressed bytes, and the
  /// `count` elements of `stride` bytes they decode to, by `mode` (`ATTRIBUTES`, `TRIANGLES`,
  /// `INDICES`) and `filter` (`NONE`, `OCTAHEDRAL`, `QUATERNION`, `EXPONENTIAL`).
  public struct MeshoptView: Sendable {
    public var source: [UInt8]
    public var count: Int, stride: Int
    public var mode: String, filter: String

    public init(source: [UInt8], count: Int, stride: Int, mode: String, filter: String) {
      self.source = source
      self.count = count
      self.stride = stride
      self.mode = mode
      self.filter = filter
    }
  }

  /// Decodes a meshopt-compressed view to `count × stride` bytes, or throws a message saying
  /// why the data is not valid.
  public typealias MeshoptDecoder = @Sendable (MeshoptView) throws -> [UInt8]

  private static let lock = NSLock()
  nonisolated(unsafe) private static var registeredMeshopt: MeshoptDecoder?

  /// Makes every later read understand `EXT_meshopt_compression` through `decoder`.
  public static func register(meshopt decoder: @escaping MeshoptDecoder) {
    lock.withLock { registeredMeshopt = decoder }
  }

  /// The registered meshopt decoder, if any.
  static var meshopt: MeshoptDecoder? { lock.withLock { registeredMeshopt } }
}
