import ARMath

/// A seeded mutational fuzzer of our own, for machines without libFuzzer and for the short run
/// `Tools/test` makes: byte flips, insertions, deletions, repeated and dropped runs, numbers
/// swapped for extreme ones (±1e308, 2⁶³, NaN, −0, huge exponents), splices of two inputs,
/// truncation. The same seed gives the same inputs.
public struct Mutator {
  private var random: SplitMix64

  public init(seed: UInt64) { random = SplitMix64(seed: seed) }

  /// Texts that have broken readers: extreme or malformed numbers, bytes that are not UTF-8,
  /// a byte-order mark, JSON and XML fragments.
  static let tokens: [[UInt8]] =
    [
      "1e308", "-1e308", "9223372036854775808", "-9223372036854775809", "NaN", "nan", "inf", "-0", "1e-400",
      "4294967296", "0x10", "", "null", "[]", "{}", "\"", "\\", ",", ":", "\n", "\r\n", "\t", "<", ">",
      "&#0;",
    ].map { Array($0.utf8) } + [
      [0xC3], [0xFF, 0xFE], [0xEF, 0xBB, 0xBF], [0xED, 0xA0, 0x80], [0x00], [0xF4, 0x90, 0x80, 0x80],
    ]

  /// A mutation of `input` (and, for a splice, of `other`), at most `limit` bytes.
  public mutating func mutate(_ input: [UInt8], other: [UInt8], limit: Int = 1 << 16) -> [UInt8] {
    var bytes = Array(input.prefix(limit))
    for _ in 0...Int.random(in: 0...3, using: &random) { step(&bytes, other: other) }
    return Array(bytes.prefix(limit))
  }

  private mutating func step(_ bytes: inout [UInt8], other: [UInt8]) {
    let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<8, using: &random) {
    case 0 where !bytes.isEmpty: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &random)
    case 1: bytes.insert(contentsOf: Self.tokens.randomElement(using: &random)!, at: at)
    case 2 where !bytes.isEmpty:
      bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &random)))
    case 3: replaceNumber(&bytes, from: at)
    case 4 where !bytes.isEmpty:
      let end = min(bytes.count, at + Int.random(in: 1...64, using: &random))
      bytes.insert(contentsOf: bytes[at..<end], at: end)  // a repeated run (a line twice)
    case 5 where !other.isEmpty:
      let from = Int.random(in: 0..<other.count, using: &random)
      bytes = Array(bytes[..<at]) + other[from...]
    case 6: bytes = Array(bytes.prefix(at))  // truncated
    default: if !bytes.isEmpty { bytes[at] = UInt8.random(in: 0...255, using: &random) }
    }
  }

  /// The first number at or after `start` replaced by an extreme token.
  private mutating func replaceNumber(_ bytes: inout [UInt8], from start: Int) {
    func isNumber(_ b: UInt8) -> Bool { (48...57).contains(b) || b == 46 || b == 45 || b == 101 || b == 69 }
    guard let first = bytes[start...].firstIndex(where: { (48...57).contains($0) }) else { return }
    var end = first
    while end < bytes.count && isNumber(bytes[end]) { end += 1 }
    bytes.replaceSubrange(first..<end, with: Self.tokens[Int.random(in: 0..<10, using: &random)])
  }
}
