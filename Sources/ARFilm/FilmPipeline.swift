import ARImage
import ARMath
import Foundation

/// What a stage does to an image of a given size, in the form the pipeline streams: the
/// image flows through a look row by row, every stage working on a row while it is in the
/// cache, and no stage ever holds the whole image.
public enum FilmStep: Sendable {
  /// Each pixel changed from its own value and place (a colour transform, a curve,
  /// vignetting, grain).
  case pointwise(FilmKernel)
  /// Each output row made from the input rows within a few rows of it (a bilateral filter).
  case neighbourhood(FilmNeighbourhood)
  /// Each pixel changed from its own value and a smooth summary of its wide neighbourhood (a
  /// Gaussian-weighted mean over tens of pixels): the summary is made first, in a pass of its
  /// own over the stage's input, then the stage is pointwise.
  case wide(FilmContextRequest)
}

/// A pointwise stage's work on one row: the row (changed in place) and its index.
public typealias FilmKernel = @Sendable (_ row: FilmRow, _ y: Int) -> Void

/// A value for each pixel of a row (a luminance, a highlight's excess), written to `out`
/// (`paddedWidth` values).
public typealias FilmRowValues = @Sendable (_ row: FilmRow, _ out: UnsafeMutablePointer<Float>) -> Void

/// One row of an image as it streams through a look, as planes: one of red, one of green, one
/// of blue and one of alpha (linear light, not premultiplied). Four pixels' channel is then one
/// vector, with no shuffling of pixels' lanes.
///
/// Each plane holds `paddedWidth` values, `width` rounded up to four, so that loops over four
/// pixels at a time need no tail; the pixels past `width` are copies of the last one (or what a
/// stage made of them) and are never written out.
public struct FilmRow {
  /// The planes, each `paddedWidth` values.
  public let red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>
  public let blue: UnsafeMutablePointer<Float>, alpha: UnsafeMutablePointer<Float>
  /// Pixels in the row.
  public let width: Int

  /// `width` rounded up to four.
  public var paddedWidth: Int { Self.padded(width) }

  static func padded(_ width: Int) -> Int { (width + 3) & ~3 }

  /// A row over `storage`, which holds `4 · paddedWidth` values.
  init(storage: UnsafeMutablePointer<Float>, width: Int) {
    let padded = Self.padded(width)
    red = storage
    green = storage + padded
    blue = storage + 2 * padded
    alpha = storage + 3 * padded
    self.width = width
  }

  /// Pixel `x` as one vector (red, green, blue, alpha).
  @inline(__always)
  public subscript(x: Int) -> SIMD4<Float> {
    get { SIMD4(red[x], green[x], blue[x], alpha[x]) }
    nonmutating set {
      red[x] = newValue.x
      green[x] = newValue.y
      blue[x] = newValue.z
      alpha[x] = newValue.w
    }
  }

  /// Fills the padding past `width` with copies of the last pixel.
  func pad() {
    for x in width..<paddedWidth { self[x] = self[width - 1] }
  }
}

/// A stage that makes each row from its input's rows `y − reach … y + reach` (clamped at the
/// image's top and bottom edges).
public struct FilmNeighbourhood: Sendable {
  /// How many rows above and below the filter reads.
  public var reach: Int
  /// How many planes of values the filter derives from each input row (a bilateral filter's
  /// luminance, soft focus's colour planes blurred across), made once per row rather than once
  /// per output row that reads it.
  public var planes: Int
  /// Writes a row's `planes` planes, one after the other, each `paddedWidth` values; nil when
  /// `planes` is 0.
  public var derive: FilmRowValues?
  /// Writes output row `y` from the window of input rows.
  public var filter: @Sendable (_ window: FilmWindow, _ out: FilmRow, _ y: Int) -> Void

  public init(
    reach: Int, planes: Int = 0, derive: FilmRowValues? = nil,
    filter: @escaping @Sendable (FilmWindow, FilmRow, Int) -> Void
  ) {
    self.reach = reach
    self.planes = derive == nil ? 0 : planes
    self.derive = derive
    self.filter = filter
  }
}

/// The input rows around an output row, for a ``FilmNeighbourhood``'s filter.
public struct FilmWindow {
  let rows: UnsafePointer<FilmRow>
  let derived: UnsafePointer<UnsafePointer<Float>>?
  /// The rows' width in pixels.
  public let width: Int
  /// How many rows above and below the output row the window holds.
  public let reach: Int

  /// The input row `dy` rows below the output row (−`reach` … `reach`; rows beyond the image's
  /// edges repeat its first or last row).
  @inline(__always)
  public func row(_ dy: Int) -> FilmRow { rows[dy + reach] }

  /// Derived plane `plane` of row `dy` (only when the neighbourhood derives planes).
  @inline(__always)
  public func plane(_ plane: Int, _ dy: Int) -> UnsafePointer<Float> {
    derived![dy + reach] + plane * FilmRow.padded(width)
  }
}

/// What a wide stage needs before it can run: a value per pixel of its input, to be averaged
/// over a Gaussian neighbourhood of `sigma` pixels, and the stage's kernel once that
/// ``FilmContextPlane`` is known.
public struct FilmContextRequest: Sendable {
  /// The neighbourhood's Gaussian 1-σ, pixels.
  public var sigma: Double
  /// The value to average, for each pixel of a row of the stage's input.
  public var value: FilmRowValues
  /// The stage's pointwise work, given the plane of averages.
  public var kernel: @Sendable (FilmContextPlane) -> FilmKernel

  public init(
    sigma: Double, value: @escaping FilmRowValues,
    kernel: @escaping @Sendable (FilmContextPlane) -> FilmKernel
  ) {
    self.sigma = sigma
    self.value = value
    self.kernel = kernel
  }
}

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
    DispatchQueue.concurrentPerform(iterations: bands) { band in
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

/// One segment of a streamed look on one thread: rows made in order (from the source or from
/// the upstream segment's window), kept in a ring as long as the next segment may read them.
final class RowProducer {
  let width: Int, height: Int, capacity: Int, planes: Int
  let neighbourhood: FilmNeighbourhood?
  let kernels: [FilmKernel]
  let upstream: RowProducer?
  let source: FilmPipeline.Source
  let derive: FilmRowValues?
  /// `capacity` rows of four planes, then their derived planes.
  let storage: UnsafeMutablePointer<Float>
  let planeStorage: UnsafeMutablePointer<Float>?
  let window: UnsafeMutablePointer<FilmRow>
  let windowPlanes: UnsafeMutablePointer<UnsafePointer<Float>>
  /// The last row made; nil before the first.
  var newest: Int?

  init(
    width: Int, height: Int, capacity: Int, planes: Int, derive: FilmRowValues?,
    neighbourhood: FilmNeighbourhood?, kernels: [FilmKernel], upstream: RowProducer?,
    source: @escaping FilmPipeline.Source
  ) {
    self.width = width
    self.height = height
    self.capacity = capacity
    self.planes = planes
    self.derive = derive
    self.neighbourhood = neighbourhood
    self.kernels = kernels
    self.upstream = upstream
    self.source = source
    let padded = FilmRow.padded(width)
    storage = .allocate(capacity: capacity * 4 * padded)
    storage.initialize(repeating: 0, count: capacity * 4 * padded)
    planeStorage = derive == nil ? nil : .allocate(capacity: capacity * planes * padded)
    planeStorage?.initialize(repeating: 0, count: capacity * planes * padded)
    let side = 2 * (neighbourhood?.reach ?? 0) + 1
    window = .allocate(capacity: side)
    windowPlanes = .allocate(capacity: side)
  }

  deinit {
    storage.deallocate()
    planeStorage?.deallocate()
    window.deallocate()
    windowPlanes.deallocate()
  }

  /// Row `y`, made (with every row before it since the last) if not yet made. Rows are asked
  /// for in increasing order, never one older than the ring holds.
  func row(_ y: Int) -> FilmRow {
    var next = newest.map { $0 + 1 } ?? y
    while next <= y {
      make(next)
      newest = next
      next += 1
    }
    return slot(y)
  }

  private func slot(_ y: Int) -> FilmRow {
    FilmRow(storage: storage + (y % capacity) * 4 * FilmRow.padded(width), width: width)
  }

  /// The derived planes of row `y`, made with it.
  func derived(_ y: Int) -> UnsafePointer<Float> {
    UnsafePointer(planeStorage! + (y % capacity) * planes * FilmRow.padded(width))
  }

  private func make(_ y: Int) {
    let out = slot(y)
    if let neighbourhood, let upstream {
      let r = neighbourhood.reach
      // The window's first row, then its last: every row between is made, and the ring
      // keeps all 2r + 1.
      _ = upstream.row(max(y - r, 0))
      _ = upstream.row(min(y + r, height - 1))
      for dy in -r...r {
        let source = min(max(y + dy, 0), height - 1)
        window[dy + r] = upstream.row(source)
        if neighbourhood.derive != nil { windowPlanes[dy + r] = upstream.derived(source) }
      }
      neighbourhood.filter(
        FilmWindow(
          rows: UnsafePointer(window),
          derived: neighbourhood.derive == nil ? nil : UnsafePointer(windowPlanes),
          width: width, reach: r), out, y)
    } else {
      source(y, out)
      out.pad()
    }
    for kernel in kernels { kernel(out, y) }
    if let derive, let planeStorage {
      derive(out, planeStorage + (y % capacity) * planes * FilmRow.padded(width))
    }
  }
}
