import ARMath
import Foundation

/// Node vectors in memory aligned to 256 bytes, freed with the tree.
final class AlignedNodes: @unchecked Sendable {
  // Written while the tree is built, read only after.
  let pointer: UnsafeMutablePointer<SIMD8<Float>>

  init(vectors count: Int) {
    let raw = UnsafeMutableRawPointer.allocate(
      byteCount: count * MemoryLayout<SIMD8<Float>>.stride, alignment: 256)
    pointer = raw.bindMemory(to: SIMD8<Float>.self, capacity: count)
  }

  deinit { pointer.deallocate() }
}
