import Foundation

/// Decoders of compressed glTF geometry that live outside ARMesh (its core stays free of C
/// libraries): a module at the edge registers them once, and every glTF read after that
/// understands the extension. Without one, a file that requires the extension is an error
/// naming it.
package enum GLTFCompression {
  /// What an `EXT_meshopt_compression` buffer view asks for: its compressed bytes, and the
  /// `count` elements of `stride` bytes they decode to, by `mode` (`ATTRIBUTES`, `TRIANGLES`,
  /// `INDICES`) and `filter` (`NONE`, `OCTAHEDRAL`, `QUATERNION`, `EXPONENTIAL`).
  package struct MeshoptView: Sendable {
    package var source: [UInt8]
    package var count: Int, stride: Int
    package var mode: String, filter: String

    package init(source: [UInt8], count: Int, stride: Int, mode: String, filter: String) {
      self.source = source
      self.count = count
      self.stride = stride
      self.mode = mode
      self.filter = filter
    }
  }

  /// Decodes a meshopt-compressed view to `count × stride` bytes, or throws a message saying
  /// why the data is not valid.
  package typealias MeshoptDecoder = @Sendable (MeshoptView) throws -> [UInt8]

  /// What a `KHR_draco_mesh_compression` primitive asks for: its compressed bytes, and the
  /// glTF attributes wanted (`POSITION`, …) by their Draco unique ids with the components each
  /// has in the glTF accessor that describes it.
  package struct DracoRequest: Sendable {
    package var source: [UInt8]
    package var attributes: [String: (id: Int, components: Int)]

    package init(source: [UInt8], attributes: [String: (id: Int, components: Int)]) {
      self.source = source
      self.attributes = attributes
    }
  }

  /// A decoded Draco mesh: its triangles (three indices each) and each requested attribute's
  /// values (as the encoder stored them, normalized integers already mapped), row after row.
  package struct DracoMesh: Sendable {
    package var indices: [UInt32]
    package var attributes: [String: [Double]]
    package var points: Int

    package init(indices: [UInt32], attributes: [String: [Double]], points: Int) {
      self.indices = indices
      self.attributes = attributes
      self.points = points
    }
  }

  /// Decodes a Draco-compressed primitive, or throws a message saying why it is not valid.
  package typealias DracoDecoder = @Sendable (DracoRequest) throws -> DracoMesh

  private static let lock = NSLock()
  nonisolated(unsafe) private static var registeredMeshopt: MeshoptDecoder?
  nonisolated(unsafe) private static var registeredDraco: DracoDecoder?

  /// Makes every later read understand `KHR_draco_mesh_compression` through `decoder`.
  package static func register(draco decoder: @escaping DracoDecoder) {
    lock.withLock { registeredDraco = decoder }
  }

  /// The registered Draco decoder, if any.
  static var draco: DracoDecoder? { lock.withLock { registeredDraco } }

  /// Makes every later read understand `EXT_meshopt_compression` through `decoder`.
  package static func register(meshopt decoder: @escaping MeshoptDecoder) {
    lock.withLock { registeredMeshopt = decoder }
  }

  /// The registered meshopt decoder, if any.
  static var meshopt: MeshoptDecoder? { lock.withLock { registeredMeshopt } }
}
