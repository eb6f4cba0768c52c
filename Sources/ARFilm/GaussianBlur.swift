import ARMath
import Foundation

/// Gaussian blur of planes of one channel (`Float`) or four (`SIMD4<Float>`, blurred together), for the stages that spread light (halation), need a
/// neighbourhood's level (shadows and highlights) or shape grain. Wide blurs are three box blurs
/// in each direction (Kovesi's sizes, "Fast almost-Gaussian filtering", 2010), whose cost does
/// not grow with the radius; narrow ones (σ ≤ 2 px) use the Gaussian's own weights. Edges are
/// clamped. Every pass runs along rows in memory order, bands of rows (or of columns) on the
/// threads.
public enum GaussianBlur {
  /// `plane` (width × height, row-major) blurred by a Gaussian of `sigma` pixels, on `threads`
  /// threads (the result is the same for any count).
  ///
  /// A blur of σ ≥ 8 px runs on a copy f times smaller each way (f = ⌊σ/4⌋, at most 4; each
  /// value the mean of an f × f block), blurred by σ/f and interpolated back between block
  /// centres: what it keeps lies far above the block's scale, and it costs f² times less.
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  public static func blur<S: BlurSample>(_ plane: [S], width: Int, height: Int, sigma: Double, threads: Int)
    -> [S]
  {
    guard sigma > 0.05, width > 0, height > 0 else { return plane }
    let f = min(4, Int(sigma / 4))
    if f >= 2, width >= 4 * f, height >= 4 * f {
      return reduced(plane, width: width, height: height, sigma: sigma, factor: f, threads: threads)
    }
    if sigma <= 2 {
      let radius = Int((3 * sigma).rounded(.up))
      let raw = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
      let total = raw.reduce(0, +)
      let weights = raw.map { $0 / total }
      var across = [S](unsafeUninitializedCapacity: plane.count) { $1 = plane.count }
      var down = [S](unsafeUninitializedCapacity: plane.count) { $1 = plane.count }
      convolveRows(plane, into: &across, width: width, height: height, weights: weights, threads: threads)
      convolveColumns(across, into: &down, width: width, height: height, weights: weights, threads: threads)
      return down
    }
    // Three boxes whose sizes' variances add up to σ².
    let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
    var lower = Int(ideal.rounded(.down))
    if lower % 2 == 0 { lower -= 1 }
    let upper = lower + 2
    let m = Int(
      ((12 * sigma * sigma - 3 * Double(lower * lower) - 12 * Double(lower) - 9) / (-4 * Double(lower) - 4))
        .rounded())
    var a = plane, b = [S](unsafeUninitializedCapacity: plane.count) { $1 = plane.count }
    for k in 0..<3 {
      let radius = ((k < m ? lower : upper) - 1) / 2
      boxRows(a, into: &b, width: width, height: height, radius: radius, threads: threads)
      boxColumns(b, into: &a, width: width, height: height, radius: radius, threads: threads)
    }
    return a
  }

  /// ``blur(_:width:height:sigma:threads:)`` through a copy `f` times smaller each way.
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func reduced<S: BlurSample>(
    _ plane: [S], width: Int, height: Int, sigma: Double, factor f: Int, threads: Int
  ) -> [S] {
    let (w, h) = ((width + f - 1) / f, (height + f - 1) / f)
    // Each block's mean (blocks at the right and bottom edges may be partial), rows of blocks
    // on the threads.
    let small = [S](unsafeUninitializedCapacity: w * h) { out, initialized in
      let target = UnsafeSendableMutablePointer(out.baseAddress!)
      plane.withUnsafeBufferPointer { source in
        let s = UnsafeSendablePointer(source.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: min(max(1, threads) * 4, h)) { band in
          let bands = min(max(1, threads) * 4, h)
          for by in (band * h / bands)..<((band + 1) * h / bands) {
            let rows = min(f, height - by * f)
            for bx in 0..<w {
              let columns = min(f, width - bx * f)
              var sum = S.zero
              for y in (by * f)..<(by * f + rows) {
                for x in (bx * f)..<(bx * f + columns) { sum += s.pointer[y * width + x] }
              }
              target.pointer[by * w + bx] = sum * (1 / Float(rows * columns))
            }
          }
        }
      }
      initialized = w * h
    }
    let blurred = blur(small, width: w, height: h, sigma: sigma / Double(f), threads: threads)
    // Back to full size: bilinear between block centres, clamped at the edges.
    var out = [S](repeating: .zero, count: plane.count)
    blurred.withUnsafeBufferPointer { b in
      let source = UnsafeSendablePointer(b.baseAddress!)
      out.withUnsafeMutableBufferPointer { o in
        let target = UnsafeSendableMutablePointer(o.baseAddress!)
        let bands = min(max(1, threads) * 4, height)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
          for y in (band * height / bands)..<((band + 1) * height / bands) {
            let sy = min(max((Float(y) + 0.5) / Float(f) - 0.5, 0), Float(h - 1))
            let y0 = min(Int(sy), h - 2 < 0 ? 0 : h - 2), fy = sy - Float(y0)
            let y1 = min(y0 + 1, h - 1)
            for x in 0..<width {
              let sx = min(max((Float(x) + 0.5) / Float(f) - 0.5, 0), Float(w - 1))
              let x0 = min(Int(sx), w - 2 < 0 ? 0 : w - 2), fx = sx - Float(x0)
              let x1 = min(x0 + 1, w - 1)
              let top =
                source.pointer[y0 * w + x0] + (source.pointer[y0 * w + x1] - source.pointer[y0 * w + x0]) * fx
              let bottom =
                source.pointer[y1 * w + x0] + (source.pointer[y1 * w + x1] - source.pointer[y1 * w + x0]) * fx
              target.pointer[y * width + x] = top + (bottom - top) * fy
            }
          }
        }
      }
    }
    return out
  }

  /// Runs `body(source, target, range)` over `count` items split into bands on the threads,
  /// from `plane` into `target` (the same size; reused from pass to pass, so that a blur
  /// allocates two planes, not one a pass).
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func bands<S: BlurSample>(
    _ plane: [S], into target: inout [S], count: Int, threads: Int,
    _ body: @Sendable (UnsafePointer<S>, UnsafeMutablePointer<S>, Range<Int>) -> Void
  ) {
    target.withUnsafeMutableBufferPointer { out in
      let t = UnsafeSendableMutablePointer(out.baseAddress!)
      plane.withUnsafeBufferPointer { source in
        let s = UnsafeSendablePointer(source.baseAddress!)
        let n = min(max(1, threads) * 4, max(1, count))
        DispatchQueue.concurrentPerform(iterations: n) { band in
          body(s.pointer, t.pointer, (band * count / n)..<((band + 1) * count / n))
        }
      }
    }
  }

  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func convolveRows<S: BlurSample>(
    _ plane: [S], into target: inout [S], width: Int, height: Int, weights: [Float], threads: Int
  ) {
    let r = weights.count / 2
    bands(plane, into: &target, count: height, threads: threads) { s, t, rows in
      weights.withUnsafeBufferPointer { w in
        for y in rows {
          let (line, out) = (s + y * width, t + y * width)
          for x in 0..<width {
            var sum = S.zero
            if x >= r && x < width - r {
              for k in 0..<w.count { sum += line[x - r + k] * w[k] }
            } else {
              for k in 0..<w.count { sum += line[min(max(x - r + k, 0), width - 1)] * w[k] }
            }
            out[x] = sum
          }
        }
      }
    }
  }

  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func convolveColumns<S: BlurSample>(
    _ plane: [S], into target: inout [S], width: Int, height: Int, weights: [Float], threads: Int
  ) {
    let r = weights.count / 2
    bands(plane, into: &target, count: height, threads: threads) { s, t, rows in
      weights.withUnsafeBufferPointer { w in
        for y in rows {
          let out = t + y * width
          for x in 0..<width { out[x] = .zero }
          // Whole rows at a time, each weighted: contiguous, and vectorised by the compiler.
          for k in 0..<w.count {
            let line = s + min(max(y - r + k, 0), height - 1) * width
            let weight = w[k]
            for x in 0..<width { out[x] += line[x] * weight }
          }
        }
      }
    }
  }

  /// A running-sum box of radius `r` (2r + 1 samples) along each row.
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func boxRows<S: BlurSample>(
    _ plane: [S], into target: inout [S], width: Int, height: Int, radius r: Int, threads: Int
  ) {
    let scale = 1 / Float(2 * r + 1)
    bands(plane, into: &target, count: height, threads: threads) { s, t, rows in
      for y in rows {
        let (line, out) = (s + y * width, t + y * width)
        var sum = S.zero
        for k in -r...r { sum += line[min(max(k, 0), width - 1)] }
        for x in 0..<width {
          out[x] = sum * scale
          sum += line[min(x + r + 1, width - 1)] - line[max(x - r, 0)]
        }
      }
    }
  }

  /// The same down each column: running sums of a band of columns, carried row by row.
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func boxColumns<S: BlurSample>(
    _ plane: [S], into target: inout [S], width: Int, height: Int, radius r: Int, threads: Int
  ) {
    let scale = 1 / Float(2 * r + 1)
    bands(plane, into: &target, count: width, threads: threads) { s, t, columns in
      let (x0, n) = (columns.lowerBound, columns.count)
      var sums = [S](repeating: .zero, count: n)
      sums.withUnsafeMutableBufferPointer { sum in
        for k in -r...r {
          let line = s + min(max(k, 0), height - 1) * width + x0
          for i in 0..<n { sum[i] += line[i] }
        }
        for y in 0..<height {
          let out = t + y * width + x0
          let (entering, leaving) = (
            s + min(y + r + 1, height - 1) * width + x0, s + max(y - r, 0) * width + x0
          )
          for i in 0..<n {
            out[i] = sum[i] * scale
            sum[i] += entering[i] - leaving[i]
          }
        }
      }
    }
  }
}

/// What ``GaussianBlur`` blurs: one channel (`Float`) or four at once (`SIMD4<Float>`).
public protocol BlurSample: Sendable {
  static var zero: Self { get }
  static func + (a: Self, b: Self) -> Self
  static func - (a: Self, b: Self) -> Self
  static func * (a: Self, b: Float) -> Self
  static func += (a: inout Self, b: Self)
}

extension Float: BlurSample {}
extension SIMD4: BlurSample where Scalar == Float {}
