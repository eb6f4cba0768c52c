import ARMath
import Testing

@testable import ARFilm

/// The AVX2 versions of the soften stage's sums (chosen at run time) against the portable
/// SSE2 loops: the same sums in the same order, so the same bits. Skipped on a CPU without AVX2,
/// where the wide path cannot run.
@Suite("Soften's AVX2 sums", .enabled(if: WideVectors.available, "this CPU has no AVX2"))
struct WideVectorTests {
  @Test(
    "across rows and down columns, AVX2 gives the bits of the portable loops, for widths and reaches around the vector sizes"
  )
  func sameBits() {
    var random = SplitMix64(seed: 3501)
    for width in [1, 5, 13, 37, 53, 100, 133, 4032] {
      for r in [1, 3, 9, 24] {
        let padded = (width + 3) & ~3
        let weights = (0...r).map { _ in Float.random(in: 0...0.2, using: &random) }
        // A row with values past its width (the padding a row carries).
        let plane = (0..<padded).map { _ in Float.random(in: -1...2, using: &random) }
        var across = [[Float]](repeating: [Float](repeating: .nan, count: padded), count: 2)
        plane.withUnsafeBufferPointer { p in
          weights.withUnsafeBufferPointer { w in
            for (k, useWide) in [false, true].enumerated() {
              across[k].withUnsafeMutableBufferPointer { out in
                Soften.convolve(
                  UnsafeMutablePointer(mutating: p.baseAddress!), into: out.baseAddress!, width: width,
                  padded: padded, weights: w, wide: useWide)
              }
            }
          }
        }
        #expect(across[0].map(\.bitPattern) == across[1].map(\.bitPattern), "across: width \(width), r \(r)")
        // 2r + 1 rows to sum down.
        let rows = (0...(2 * r)).map { _ in (0..<padded).map { _ in Float.random(in: -1...2, using: &random) }
        }
        var down = [[Float]](repeating: [Float](repeating: .nan, count: padded), count: 2)
        let pointers = rows.map { row in
          let p = UnsafeMutablePointer<Float>.allocate(capacity: padded)
          p.initialize(from: row, count: padded)
          return UnsafePointer(p)
        }
        defer { pointers.forEach { $0.deallocate() } }
        pointers.withUnsafeBufferPointer { rowPointers in
          weights.withUnsafeBufferPointer { w in
            for (k, useWide) in [false, true].enumerated() {
              down[k].withUnsafeMutableBufferPointer { out in
                Soften.symmetricSum(
                  rowPointers.baseAddress!, weights: w, count: padded, into: out.baseAddress!, wide: useWide)
              }
            }
          }
        }
        #expect(down[0].map(\.bitPattern) == down[1].map(\.bitPattern), "down: width \(width), r \(r)")
        #expect(!down[0].contains { $0.isNaN } && !across[0][..<width].contains { $0.isNaN })
      }
    }
  }

  @Test("soft focus and the bilateral filter give the same bytes with AVX2 and without, on any width")
  func stagesSameBytes() throws {
    for width in [3, 9, 17, 40, 131] {
      let image = FilmStageTests.randomImage(width: width, height: 23, seed: UInt64(width))
      let stages: [any FilmStage] = [
        Soften(sigma: 1.4, strength: 0.7),
        try FilmStageTests.stage(BilateralBlur.self, ["sigma_px": 0.6, "sigma_range": 0.08]),
        try FilmStageTests.stage(BilateralBlur.self, ["sigma_px": 1.5, "sigma_range": 0.2]),
      ]
      for stage in stages {
        var (portable, wide) = (image, image)
        var context = FilmContext(threads: 2)
        context.wideVectors = false
        stage.apply(to: &portable, context: context)
        context.wideVectors = true
        stage.apply(to: &wide, context: context)
        #expect(
          portable.pixels.elementsEqualBitwise(wide.pixels),
          "\(type(of: stage).key), width \(width)")
        #expect(portable.pixels != image.pixels, "\(type(of: stage).key) changed nothing")
      }
    }
  }
}

extension Array where Element == SIMD4<Float> {
  /// Whether both hold the same bits, lane for lane (NaN and −0 included).
  fileprivate func elementsEqualBitwise(_ other: [SIMD4<Float>]) -> Bool {
    count == other.count
      && zip(self, other).allSatisfy { a, b in (0..<4).allSatisfy { a[$0].bitPattern == b[$0].bitPattern } }
  }
}
