import ARMath
import Foundation

/// Gaussian blur of one-channel planes, for the stages that spread light (halation) or need a
/// neighbourhood's level (shadows and highlights). Wide blurs are three box blurs in each
/// direction (Kovesi's sizes, "Fast almost-Gaussian filtering", 2010), whose cost does not grow
/// with the radius; narrow ones (σ ≤ 2 px) use the Gaussian's own weights. Edges are clamped.
public enum GaussianBlur {
  /// `plane` (width × height, row-major) blurred by a Gaussian of `sigma` pixels, on `threads`
  /// threads (the result is the same for any count).
  public static func blur(_ plane: [Float], width: Int, height: Int, sigma: Double, threads: Int) -> [Float] {
    guard sigma > 0.05, width > 0, height > 0 else { return plane }
    var a = plane
    if sigma <= 2 {
      let radius = Int((3 * sigma).rounded(.up))
      let raw = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
      let total = raw.reduce(0, +)
      let weights = raw.map { $0 / total }
      a = pass(a, width: width, height: height, threads: threads, horizontal: true) { line, out, n in
        convolve(line, out, n, weights, radius)
      }
      a = pass(a, width: width, height: height, threads: threads, horizontal: false) { line, out, n in
        convolve(line, out, n, weights, radius)
      }
      return a
    }
    // Three boxes whose sizes' variances add up to σ².
    let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
    var lower = Int(ideal.rounded(.down))
    if lower % 2 == 0 { lower -= 1 }
    let upper = lower + 2
    let m = Int(
      ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4))
        .rounded())
    for k in 0..<3 {
      let radius = ((k < m ? lower : upper) - 1) / 2
      for horizontal in [true, false] {
        a = pass(a, width: width, height: height, threads: threads, horizontal: horizontal) { line, out, n in
          box(line, out, n, radius)
        }
      }
    }
    return a
  }

  /// One pass along rows (or columns), lines spread over threads.
  private static func pass(
    _ plane: [Float], width: Int, height: Int, threads: Int, horizontal: Bool,
    _ filter: @Sendable (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void
  ) -> [Float] {
    let (lines, length) = horizontal ? (height, width) : (width, height)
    var out = [Float](repeating: 0, count: plane.count)
    plane.withUnsafeBufferPointer { source in
      out.withUnsafeMutableBufferPointer { target in
        let (s, t) = (
          UnsafeSendablePointer(source.baseAddress!), UnsafeSendableMutablePointer(target.baseAddress!)
        )
        let bands = min(max(1, threads) * 4, lines)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
          var line = [Float](repeating: 0, count: length), result = [Float](repeating: 0, count: length)
          for l in (band * lines / bands)..<((band + 1) * lines / bands) {
            if horizontal {
              for i in 0..<length { line[i] = s.pointer[l * width + i] }
            } else {
              for i in 0..<length { line[i] = s.pointer[i * width + l] }
            }
            line.withUnsafeBufferPointer { lp in
              result.withUnsafeMutableBufferPointer { rp in filter(lp.baseAddress!, rp.baseAddress!, length) }
            }
            if horizontal {
              for i in 0..<length { t.pointer[l * width + i] = result[i] }
            } else {
              for i in 0..<length { t.pointer[i * width + l] = result[i] }
            }
          }
        }
      }
    }
    return out
  }

  private static func convolve(
    _ line: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n: Int, _ w: [Float], _ r: Int
  ) {
    for i in 0..<n {
      var sum: Float = 0
      for k in -r...r { sum += w[k + r] * line[min(max(i + k, 0), n - 1)] }
      out[i] = sum
    }
  }

  /// A running-sum box of radius `r` (2r + 1 samples).
  private static func box(
    _ line: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ n: Int, _ r: Int
  ) {
    let scale = 1 / Float(2 * r + 1)
    var sum: Float = 0
    for k in -r...r { sum += line[min(max(k, 0), n - 1)] }
    for i in 0..<n {
      out[i] = sum * scale
      sum += line[min(i + r + 1, n - 1)] - line[max(i - r, 0)]
    }
  }
}
