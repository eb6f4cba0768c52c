import ARMath
import CVectorKernels
import Testing

@testable import ARMarkers

/// The C search for a reading's nearest code (`arscene_nearest_code`, with POPCNT where the
/// CPU has it) against the search written out in Swift: the first nearest (turn, then id)
/// within the limit, and whether another id is as near.
@Suite("Nearest marker code")
struct NearestCodeTests {
  static func reference(_ codes: [UInt64], _ turned: [UInt64], limit: Int) -> (
    id: Int, distance: Int, turn: Int, tied: Bool
  )? {
    var best: (id: Int, distance: Int, turn: Int)?
    var tied = false
    for (turn, code) in turned.enumerated() {
      for (id, candidate) in codes.enumerated() {
        let d = (candidate ^ code).nonzeroBitCount
        guard d <= limit else { continue }
        if d < (best?.distance ?? .max) {
          (best, tied) = ((id, d, turn), false)
        } else if d == best?.distance, id != best?.id {
          tied = true
        }
      }
    }
    return best.map { ($0.id, $0.distance, $0.turn, tied) }
  }

  @Test(
    "equals the Swift search on readings near and far from real dictionaries' codes",
    arguments: ["apriltag_36h11", "apriltag_16h5", "aruco_4x4_50", "aruco_6x6_1000"])
  func equalsSwiftSearch(name: String) {
    let dictionary = MarkerDictionary.named(name)!
    let bits = dictionary.size * dictionary.size
    var random = SplitMix64(seed: UInt64(bits))
    for _ in 0..<400 {
      // A code with a few bits flipped, or noise; four turns of it (here: other codes' noise).
      let base = dictionary.codes[Int.random(in: 0..<dictionary.codes.count, using: &random)]
      let turned = (0..<4).map { k -> UInt64 in
        var code = k == 0 ? base : UInt64.random(in: 0..<(1 << UInt64(bits)), using: &random)
        for _ in 0..<Int.random(in: 0...4, using: &random) {
          code ^= 1 << UInt64(Int.random(in: 0..<bits, using: &random))
        }
        return code
      }
      for limit in [0, 2, dictionary.correctionLimit, bits] {
        var match = arscene_code_match()
        dictionary.codes.withUnsafeBufferPointer { codes in
          arscene_nearest_code(codes.baseAddress, codes.count, turned, Int32(limit), &match)
        }
        let expected = Self.reference(dictionary.codes, turned, limit: limit)
        #expect(match.id == (expected?.id ?? -1), "\(name) limit \(limit)")
        if let expected {
          #expect(Int(match.distance) == expected.distance && Int(match.turn) == expected.turn)
          #expect((match.tied != 0) == expected.tied)
        }
      }
    }
  }
}
