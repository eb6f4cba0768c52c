/// A tiny seeded random number generator (Steele, Lea & Flood's SplitMix64): RANSAC and the
/// property tests draw from it, so that a seed fixes every result and a failing case replays.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// An index in `0..<n` (`n > 0`) by the remainder of the next value: one draw, no rejection
  /// loop, with a bias of at most `n / 2⁶⁴` (nil for any `n` a point cloud can have).
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
