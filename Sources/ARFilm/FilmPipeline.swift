import ARImage
import ARMath
import Foundation

/// A pointwise stage's work on one row: the row (changed in place) and its index.
public typealias FilmKernel = @Sendable (_ row: FilmRow, _ y: Int) -> Void

/// A value for each pixel of a row (a luminance, a highlight's excess), written to `out`
/// (`paddedWidth` values).
public typealias FilmRowValues = @Sendable (_ row: FilmRow, _ out: UnsafeMutablePointer<Float>) -> Void

/// Runs a look's steps over an image row by row, on threads: each thread takes bands of rows
/// and streams them through every step, keeping only the rows a neighbourhood still needs.
enum FilmPipeline {
  /// Makes input row `y` (decoded from 8 bits, copied from a float image); the pipeline pads it.
  typealias Source = @Sendable (_ y: Int, _ out: FilmRow) -> Void
  /// Takes finished row `y`.
  typealias Sink = @Sendable (_ y: Int, _ row: FilmRow) -> Void

  /// `steps` (a wide step's plane is made first, by a pass over the steps before it) from
  /// `source` to `sink`.
  static func run(
    steps: [FilmStep], width: Int, height: Int, threads: Int, source: @escaping Source, sink: @escaping Sink
  ) {
    var resolved = steps
    for k in resolved.indices {
      guard case .wide(let request) = resolved[k] else { continue }
      let plane = contextPlane(
        request, steps: Array(resolved[..<k]), width: width, height: height, threads: threads, source: source)
      resolved[k] = .pointwise(request.kernel(plane))
    }
    stream(
      steps: resolved, width: width, height: height, threads: threads, alignment: 1, source: source,
      sink: sink)
  }

  /// The plane a wide step asks for, from its input: the image after `steps`.
  static func contextPlane(
    _ request: FilmContextRequest, steps: [FilmStep], width: Int, height: Int, threads: Int,
    source: @escaping Source
  ) -> FilmContextPlane {
    let f = FilmContextPlane.factor(sigma: request.sigma)
    let sw = (width + f - 1) / f, sh = (height + f - 1) / f
    var sums = [Float](repeating: 0, count: sw * sh)
    let value = request.value
    sums.withUnsafeMutableBufferPointer { buffer in
      let target = UnsafeSendableMutablePointer(buffer.baseAddress!)
      // Bands of whole blocks, so that each block's sum is one thread's.
      stream(
        steps: steps, width: width, height: height, threads: threads, alignment: f, source: source
      ) { y, row in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: row.paddedWidth) { values in
          value(row, values.baseAddress!)
          let line = target.pointer + (y / f) * sw
          for bx in 0..<sw {
            var sum: Float = 0
            for x in (bx * f)..<min(width, bx * f + f) { sum += values[x] }
            line[bx] += sum
          }
        }
      }
    }
    return FilmContextPlane(
      sums: sums, width: width, height: height, factor: f, sigma: request.sigma, threads: threads)
  }

  /// Streams rows through pointwise and neighbourhood steps (no wide ones) in bands of rows
  /// whose boundaries are multiples of `alignment`.
  static func stream(
    steps: [FilmStep], width: Int, height: Int, threads: Int, alignment: Int, source: @escaping Source,
    sink: Sink
  ) {
    guard width > 0, height > 0 else { return }
    // Segments: the source or a neighbourhood, then the pointwise kernels after it.
    var segments: [(FilmNeighbourhood?, [FilmKernel])] = [(nil, [])]
    for step in steps {
      switch step {
      case .pointwise(let kernel): segments[segments.count - 1].1.append(kernel)
      case .neighbourhood(let n): segments.append((n, []))
      case .wide: preconditionFailure("wide steps are resolved before streaming")
      }
    }
    let chain = segments
    let blocks = (height + alignment - 1) / alignment
    let bands = min(blocks, max(1, threads) * 4)
    forEachBand(bands, threads: threads) { band in
      let first = band * blocks / bands * alignment
      let end = min(height, (band + 1) * blocks / bands * alignment)
      guard first < end else { return }
      var producers: [RowProducer] = []
      for (k, segment) in chain.enumerated() {
        // Each segment keeps the rows the next one's window spans (the last, one row).
        let next = k + 1 < chain.count ? chain[k + 1].0 : nil
        producers.append(
          RowProducer(
            width: width, height: height, capacity: 2 * (next?.reach ?? 0) + 1, planes: next?.planes ?? 0,
            derive: next?.derive, neighbourhood: segment.0, kernels: segment.1, upstream: producers.last,
            source: source))
      }
      let last = producers[producers.count - 1]
      for y in first..<end { sink(y, last.row(y)) }
    }
  }
}
