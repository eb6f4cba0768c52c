import ARMath
import CVectorKernels
import Testing

/// The C kernel a mesh's indices are offset by, with stores that bypass the cache: the same
/// values as the definition at every alignment and length, and nothing written outside.
@Suite("Mesh index offsets")
struct IndexOffsetTests {
  @Test("every start alignment and length, offsets that wrap included; nothing written past either end")
  func againstDefinition() {
    var random = SplitMix64(seed: 71)
    let guardValue: UInt32 = 0xDEAD_BEEF
    for start in 0..<8 {
      for count in [0, 1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 64, 65, 1000] {
        let input = (0..<count).map { _ in UInt32.random(in: 0...UInt32.max, using: &random) }
        let base = UInt32.random(in: 0...UInt32.max, using: &random)
        // `start` words into the buffer, so that the output's alignment varies.
        var output = [UInt32](repeating: guardValue, count: start + count + 8)
        input.withUnsafeBufferPointer { from in
          output.withUnsafeMutableBufferPointer { to in
            arscene_offset_indices(
              from.baseAddress ?? UnsafePointer(bitPattern: 4)!, to.baseAddress! + start, count, base)
          }
        }
        #expect(output[..<start].allSatisfy { $0 == guardValue })
        #expect(
          Array(output[start..<(start + count)]) == input.map { $0 &+ base }, "start \(start), count \(count)"
        )
        #expect(output[(start + count)...].allSatisfy { $0 == guardValue })
      }
    }
  }
}
