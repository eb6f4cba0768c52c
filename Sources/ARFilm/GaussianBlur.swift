import ARMath
import Foundation

/// Gaussian blur of planes of one channel (`Float`) or four (`SIMD4<Float>`, blurred together),
/// for the planes that summarise a neighbourhood (a highlight's glow, the level around a pixel).
/// The Gaussian's own weights, cut at 3σ, in each direction; edges are clamped. Every pass runs
/// along rows in memory order, bands of rows on the threads. (Three box blurs, Kovesi's
/// "almost-Gaussian", were used before for wide blurs: on a point of light their peak was 6–16%
/// low at σ 2.4–9 px, and a highlight's glow is exactly that.)
public enum GaussianBlur {
  /// What lies beyond a plane's edges.
  public enum Edges: Sendable {
    /// The edge's values, repeated.
    case repeated
    /// Zero: blurring a plane of ones then gives each value's share of weights inside the plane,
    /// to divide by for a mean over the plane's part of the neighbourhood.
    case zero
  }

  /// `plane` (width × height, row-major) blurred by a Gaussian of `sigma` pixels, on `threads`
  /// threads (the result is the same for any count).
  ///
  /// A blur of σ > 4 px runs on a copy f = ⌈σ/4⌉ times smaller each way (each value the mean of
  /// an f × f block), blurred there and interpolated back bilinearly between block centres:
  /// what it keeps lies far above the block's scale, and it costs f² times less. The block mean
  /// and the interpolation spread a value by about f²/4 px² between them, so the reduced blur
  /// gives the rest of σ².
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  public static func blur<S: BlurSample>(
    _ plane: [S], width: Int, height: Int, sigma: Double, edges: Edges = .repeated, threads: Int
  ) -> [S] {
    guard sigma > 0.05, width > 0, height > 0 else { return plane }
    let f = Int((sigma / 4).rounded(.up))
    if f >= 2, width >= 2 * f, height >= 2 * f {
      return reduced(
        plane, width: width, height: height, sigma: sigma, factor: f, edges: edges, threads: threads)
    }
    let radius = Int((3 * sigma).rounded(.up))
    let raw = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
    let total = raw.reduce(0, +)
    let weights = raw.map { $0 / total }
    var across = [S](unsafeUninitializedCapacity: plane.count) { $1 = plane.count }
    var down = [S](unsafeUninitializedCapacity: plane.count) { $1 = plane.count }
    convolveRows(
      plane, into: &across, width: width, height: height, weights: weights, edges: edges, threads: threads)
    convolveColumns(
      across, into: &down, width: width, height: height, weights: weights, edges: edges, threads: threads)
    return down
  }

  /// ``blur(_:width:height:sigma:threads:)`` through a copy `f` times smaller each way.
  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func reduced<S: BlurSample>(
    _ plane: [S], width: Int, height: Int, sigma: Double, factor f: Int, edges: Edges, threads: Int
  ) -> [S] {
    let (w, h) = ((width + f - 1) / f, (height + f - 1) / f)
    // Each block's mean (blocks at the right and bottom edges may be partial), rows of blocks
    // on the threads.
    let small = [S](unsafeUninitializedCapacity: w * h) { out, initialized in
      let target = UnsafeSendableMutablePointer(out.baseAddress!)
      plane.withUnsafeBufferPointer { source in
        let s = UnsafeSendablePointer(source.baseAddress!)
        forEachBand(min(max(1, threads) * 4, h), threads: threads) { band in
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
    let reducedSigma = (sigma * sigma - Double(f * f) / 4).squareRoot() / Double(f)
    let blurred = blur(small, width: w, height: h, sigma: reducedSigma, edges: edges, threads: threads)
    // Back to full size: bilinear between block centres, clamped at the edges.
    var out = [S](repeating: .zero, count: plane.count)
    blurred.withUnsafeBufferPointer { b in
      let source = UnsafeSendablePointer(b.baseAddress!)
      out.withUnsafeMutableBufferPointer { o in
        let target = UnsafeSendableMutablePointer(o.baseAddress!)
        let bands = min(max(1, threads) * 4, height)
        forEachBand(bands, threads: threads) { band in
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
        forEachBand(n, threads: threads) { band in
          body(s.pointer, t.pointer, (band * count / n)..<((band + 1) * count / n))
        }
      }
    }
  }

  @_specialize(where S == Float)
  @_specialize(where S == SIMD4<Float>)
  private static func convolveRows<S: BlurSample>(
    _ plane: [S], into target: inout [S], width: Int, height: Int, weights: [Float], edges: Edges,
    threads: Int
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
              for k in 0..<w.count {
                let at = x - r + k
                if edges == .repeated {
                  sum += line[min(max(at, 0), width - 1)] * w[k]
                } else if at >= 0 && at < width {
                  sum += line[at] * w[k]
                }
              }
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
    _ plane: [S], into target: inout [S], width: Int, height: Int, weights: [Float], edges: Edges,
    threads: Int
  ) {
    let r = weights.count / 2
    bands(plane, into: &target, count: height, threads: threads) { s, t, rows in
      weights.withUnsafeBufferPointer { w in
        for y in rows {
          let out = t + y * width
          for x in 0..<width { out[x] = .zero }
          // Whole rows at a time, each weighted: contiguous, and vectorised by the compiler.
          for k in 0..<w.count {
            let at = y - r + k
            if edges == .zero && (at < 0 || at >= height) { continue }
            let line = s + min(max(at, 0), height - 1) * width
            let weight = w[k]
            for x in 0..<width { out[x] += line[x] * weight }
          }
        }
      }
    }
  }
}

extension Float: BlurSample {}
extension SIMD4: BlurSample where Scalar == Float {}
