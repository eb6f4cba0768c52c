import ARImage
import ARMath
import Foundation

/// A value per pixel averaged over a Gaussian neighbourhood, kept at a reduced size: at each
/// pixel, the Gaussian-weighted mean of the values over the part of its neighbourhood inside
/// the image (near an edge, the mean of what is there, not of a repeated edge).
///
/// A blur of σ pixels keeps nothing finer than about σ, so the plane is made from the sums of
/// f × f blocks (f = ⌈σ/3⌉, 1 for narrow blurs), blurred at that size with the blocks' pixel
/// counts (so that partial blocks and the edges weigh what they hold), and interpolated back
/// bilinearly between block centres. The block and the interpolation spread values by about
/// f²/12 and f²/6 px², and the blur at the reduced size gives the rest of σ²; a value moves
/// to its block's centre, at most (f − 1)/2 px, a tenth of σ or less.
public struct FilmContextPlane: Sendable {
  /// The image's size in pixels.
  public let width: Int, height: Int
  let factor: Int
  let smallWidth: Int, smallHeight: Int
  let small: [Float]
  /// Runs of columns between the same two block centres: run k covers columns
  /// `runStart[k] ..< runStart[k + 1]` and interpolates between blocks `runBlock[k]` and the
  /// next.
  let runStart: [Int], runBlock: [Int]
  /// For each column, its weight on the block to the right (three more, for whole-vector reads).
  let columnWeight: [Float]

  /// The block factor for a neighbourhood of `sigma` pixels.
  static func factor(sigma: Double) -> Int { max(1, Int((sigma / 3).rounded(.up))) }

  /// The plane from block sums (`sums`, `smallWidth × smallHeight` blocks of `factor` pixels).
  init(sums: [Float], width: Int, height: Int, factor f: Int, sigma: Double, threads: Int) {
    let (sw, sh) = ((width + f - 1) / f, (height + f - 1) / f)
    // Each block's sum and pixel count, blurred together with nothing beyond the edges.
    var blocks = [SIMD4<Float>](repeating: .zero, count: sw * sh)
    for by in 0..<sh {
      let rows = min(f, height - by * f)
      for bx in 0..<sw {
        blocks[by * sw + bx] = SIMD4(sums[by * sw + bx], Float(rows * min(f, width - bx * f)), 0, 0)
      }
    }
    let reducedSigma = f == 1 ? sigma : (max(0, sigma * sigma - Double(f * f) / 4)).squareRoot() / Double(f)
    let blurred = GaussianBlur.blur(
      blocks, width: sw, height: sh, sigma: reducedSigma, edges: .zero, threads: threads)
    self.width = width
    self.height = height
    self.factor = f
    self.smallWidth = sw
    self.smallHeight = sh
    self.small = blurred.map { $0.y > 0 ? $0.x / $0.y : 0 }
    var (starts, runBlocks) = ([Int](), [Int]())
    var weight = [Float](repeating: 0, count: width + 3)
    for x in 0..<width {
      let s = min(max((Float(x) + 0.5) / Float(f) - 0.5, 0), Float(sw - 1))
      let x0 = min(Int(s), max(0, sw - 2))
      if runBlocks.last != x0 {
        starts.append(x)
        runBlocks.append(x0)
      }
      weight[x] = sw == 1 ? 0 : s - Float(x0)
    }
    runStart = starts + [width]
    runBlock = runBlocks
    columnWeight = weight
  }

  /// The plane's row `y` at full width, padded as a ``FilmRow`` is (`FilmRow.paddedWidth`
  /// values, the last repeated).
  public func row(_ y: Int, into out: UnsafeMutablePointer<Float>) {
    fill(y, out)
    for x in width..<FilmRow.padded(width) { out[x] = out[width - 1] }
  }

  private func fill(_ y: Int, _ out: UnsafeMutablePointer<Float>) {
    small.withUnsafeBufferPointer { s in
      if factor == 1 {
        for x in 0..<width { out[x] = s[y * width + x] }
        return
      }
      let sy = min(max((Float(y) + 0.5) / Float(factor) - 0.5, 0), Float(smallHeight - 1))
      let y0 = min(Int(sy), max(0, smallHeight - 2)), fy = sy - Float(y0)
      let y1 = min(y0 + 1, smallHeight - 1)
      withUnsafeTemporaryAllocation(of: Float.self, capacity: smallWidth + 1) { line in
        for bx in 0..<smallWidth {
          let (top, bottom) = (s[y0 * smallWidth + bx], s[y1 * smallWidth + bx])
          line[bx] = top + (bottom - top) * fy
        }
        line[smallWidth] = line[smallWidth - 1]
        // Run by run of columns between the same two block centres, four columns at a time.
        // A run's last four may spill past its end into the next run's columns, which that run
        // then writes; the last run, which has no next, finishes one column at a time.
        columnWeight.withUnsafeBufferPointer { weight in
          let w = weight.baseAddress!
          let runs = runBlock.count
          for k in 0..<runs {
            let (start, end, b) = (runStart[k], runStart[k + 1], runBlock[k])
            let (first, change) = (line[b], line[b + 1] - line[b])
            var x = start
            if k < runs - 1 {
              while x < end {
                storeFour(SIMD4(repeating: first) + change * loadFour(w, x), out, x)
                x &+= 4
              }
            } else {
              for i in x..<end { out[i] = first + change * w[i] }
            }
          }
        }
      }
    }
  }
}
