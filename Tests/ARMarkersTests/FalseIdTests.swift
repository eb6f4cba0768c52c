import ARImage
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// A false id is a bug (issue 72): squares whose cells are near a code but not it, slivers and
/// boxes too small to hold cells, and one square read two ways are not reported; a doubtful
/// cell is corrected where a confident wrong one is not.
@Suite("Markers: no false ids")
struct FalseIdTests {
  /// A 240 × 240 grey frame holding a square of `size` × `size` data cells `bits` (row by row,
  /// the first cell the most significant bit, 1 white) in a black border and a white quiet
  /// zone, `cell` pixels a cell, its top-left border corner at (60, 60); cells listed in
  /// `levels` drawn at that grey level instead, Gaussian noise of 2 levels.
  static func square(
    bits: UInt64, size: Int, cell: Int = 10, levels: [Int: UInt8] = [:], seed: UInt64 = 1
  ) -> RGBA8Image {
    var random = SplitMix64(seed: seed)
    var image = RGBA8Image(width: 240, height: 240, fill: SIMD4(130, 130, 130, 255))
    let origin = 60, across = size + 2
    for y in (origin - cell)..<(origin + (across + 1) * cell) {
      for x in (origin - cell)..<(origin + (across + 1) * cell) {
        let (r, c) = ((y - origin) / cell - 1, (x - origin) / cell - 1)
        var level: UInt8 = 235
        if (-1...size).contains(r), (-1...size).contains(c), y >= origin, x >= origin {
          if r < 0 || c < 0 || r == size || c == size {
            level = 20
          } else {
            let k = r * size + c
            level = levels[k] ?? (bits >> UInt64(size * size - 1 - k) & 1 == 1 ? 235 : 20)
          }
        }
        let v = UInt8(min(255, max(0, (Double(level) + 2 * random.gaussian()).rounded())))
        image[x, y] = SIMD4(v, v, v, 255)
      }
    }
    return image
  }

  /// `code` with `count` seeded distinct cells flipped.
  static func flipped(_ code: UInt64, cells: Int, count: Int, random: inout SplitMix64) -> UInt64 {
    var result = code, chosen = Set<Int>()
    while chosen.count < count { chosen.insert(Int(random.next() % UInt64(cells))) }
    for k in chosen { result ^= 1 << UInt64(k) }
    return result
  }

  /// The least distance from `bits` to any code of `dictionary` in any of its four turns.
  static func nearest(_ bits: UInt64, _ dictionary: MarkerDictionary) -> Int {
    let n = dictionary.size
    var turned = bits, best = Int.max
    for _ in 0..<4 {
      for code in dictionary.codes { best = min(best, (code ^ turned).nonzeroBitCount) }
      // A quarter turn: cell (r, c) of the new pattern is cell (n − 1 − c, r) of the old.
      var next: UInt64 = 0
      for r in 0..<n {
        for c in 0..<n {
          let k = (n - 1 - c) * n + r
          next = next << 1 | (turned >> UInt64(n * n - 1 - k) & 1)
        }
      }
      turned = next
    }
    return best
  }

  @Test(
    "squares a bit or two from a code of a weak dictionary, every cell clear, are no marker (60 seeds each)",
    arguments: ["apriltag_16h5", "aruco_4x4_50", "aruco_5x5_1000", "aruco_original"])
  func nearMissesOfWeakDictionaries(name: String) throws {
    let dictionary = try #require(MarkerDictionary.named(name))
    let detector = MarkerDetector(dictionary: dictionary)
    var random = SplitMix64(seed: 72)
    var tried = 0
    while tried < 60 {
      let code = dictionary.codes[Int(random.next() % UInt64(dictionary.codes.count))]
      let bits = Self.flipped(
        code, cells: dictionary.size * dictionary.size, count: 1 + tried % 2, random: &random)
      guard Self.nearest(bits, dictionary) > 0 else { continue }
      tried += 1
      let found = detector.detect(Self.square(bits: bits, size: dictionary.size, seed: UInt64(tried)))
      #expect(
        found.isEmpty, "\(name): \(String(bits, radix: 2)) read as \(found.map { ($0.id, $0.hamming) })")
    }
  }

  @Test("a strong dictionary corrects what it safely can: 36h11 one bit off is read, three bits off is not")
  func strongDictionaryCorrects() throws {
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    let detector = MarkerDetector(dictionary: dictionary)
    var random = SplitMix64(seed: 11)
    for seed in 0..<8 {
      let id = Int(random.next() % UInt64(dictionary.codes.count))
      let one = Self.flipped(dictionary.codes[id], cells: 36, count: 1, random: &random)
      let read = detector.detect(Self.square(bits: one, size: 6, seed: UInt64(seed)))
      #expect(read.map(\.id) == [id] && read.first?.hamming == 1, "\(read)")
      let three = Self.flipped(dictionary.codes[id], cells: 36, count: 3, random: &random)
      #expect(detector.detect(Self.square(bits: three, size: 6, seed: UInt64(seed))).isEmpty)
    }
  }

  @Test(
    "a doubtful cell (mid-grey) is corrected on a weak dictionary; the same cell confidently wrong is not")
  func doubtfulCellCorrected() throws {
    let dictionary = try #require(MarkerDictionary.named("apriltag_16h5"))
    let detector = MarkerDetector(dictionary: dictionary)
    let code = dictionary.codes[12]
    // Cell 5 of id 12, drawn mid-grey: its reading could go either way.
    let doubtful = detector.detect(Self.square(bits: code, size: 4, levels: [5: 128]))
    #expect(doubtful.map(\.id) == [12], "\(doubtful)")
    let wrong = detector.detect(Self.square(bits: code ^ (1 << 10), size: 4))
    #expect(wrong.isEmpty, "\(wrong)")
  }

  @Test("a 4 × 16 px box, a 3 × 40 px sliver and a speck are no marker in any dictionary")
  func boxesAndSlivers() throws {
    var image = RGBA8Image(width: 160, height: 120, fill: SIMD4(230, 230, 230, 255))
    for (x0, y0, w, h) in [(20, 20, 16, 4), (60, 30, 3, 40), (100, 80, 3, 3), (120, 20, 6, 5)] {
      for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { image[x, y] = SIMD4(15, 15, 15, 255) } }
    }
    for dictionary in MarkerDictionary.all {
      let found = MarkerDetector(dictionary: dictionary).detect(image)
      #expect(found.isEmpty, "\(dictionary.name): \(found.map(\.id))")
    }
  }

  @Test(
    "every marker found reports its decision margin and bits corrected; an exact clean one has a wide margin")
  func evidenceReported() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    let found = MarkerDetector(dictionary: dictionary).detect(
      Self.square(bits: dictionary.codes[42], size: 6))
    let marker = try #require(found.first)
    #expect(found.count == 1 && marker.id == 42 && marker.hamming == 0)
    // Cells at 20 and 235: each side of the threshold by about half the contrast.
    #expect((marker.decisionMargin ?? 0) > 80, "\(String(describing: marker.decisionMargin))")
    let json = String(decoding: try JSONEncoder().encode(MarkerReport(found)), as: UTF8.self)
    #expect(json.contains(#""bits_corrected":0"#) && json.contains(#""decision_margin":"#), "\(json)")
  }

  @Test("dictionaries' chances of a false match and the bits they correct, from their size and ids")
  func correctionBudgets() throws {
    func named(_ name: String) throws -> MarkerDictionary { try #require(MarkerDictionary.named(name)) }
    // OpenCV's maxCorrectionBits × 0.6, AprilTag's 2.
    #expect(try named("aruco_6x6_250").correctionLimit == 3)
    #expect(try named("aruco_4x4_50").correctionLimit == 0)
    #expect(try named("apriltag_16h5").correctionLimit == 2)
    #expect(try named("apriltag_36h11").correctionLimit == 2)
    // 30 codes × 4 turns over 2¹⁶ patterns; within 2 bits, 137 patterns a code each.
    #expect(abs(try named("apriltag_16h5").chanceOfFalseMatch(within: 0) - 120 / 65536) < 1e-12)
    #expect(abs(try named("apriltag_16h5").chanceOfFalseMatch(within: 2) - 120 * 137 / 65536) < 1e-12)
  }
}
