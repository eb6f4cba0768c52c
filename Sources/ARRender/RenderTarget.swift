import ARImage

/// What a frame is drawn into: the output image, and each worker's tile memory.
///
/// Depth, the triangle marked visible at each sample, and linear colour when samples are
/// averaged or blended, live only in a tile-sized scratch buffer per worker, as on a tiled GPU:
/// a tile is cleared, drawn and resolved into the output while it is in the cache, and a frame
/// needs no sample buffers of its own (a 4K frame with 4 samples a pixel would need 660 MB of
/// them). Samples that are pixels written over go straight into the output image in its 8-bit
/// encoding (``SampleStore``).
final class RenderTarget: @unchecked Sendable {
  /// The sampling resolution (output size times the supersampling factor).
  let width: Int
  let height: Int
  /// Samples per pixel along each axis.
  let factor: Int
  /// The side of a tile, in samples: a multiple of `factor`, so tiles resolve on their own.
  let tileSize: Int
  /// What a cleared sample holds: a camera frame (output size, each pixel covering
  /// `factor × factor` samples) or one colour.
  var background: LinearImage? = nil
  var backgroundColor = SIMD4<Float>(0, 0, 0, 1)
  /// A shadow catcher's shadow darkening the background where it falls, and giving the
  /// distance to its plane there (``distances``); valid while a frame is drawn.
  var shadow: ShadowLayer.View? = nil
  /// When set, each pixel's distance (metres along the view axis to the nearest opaque surface
  /// among its samples, +∞ where there is none) is written here as its tile is drawn: output
  /// size, row by row. `near` turns the reversed depth back into distance.
  var distances: UnsafeMutablePointer<Float>? = nil
  var near: Float = 1
  private var workers = 0
  /// Per worker, `tileSize²` depths (reversed NDC, −near/distance; +∞ when empty), linear colours and visible
  /// triangles (see ``tileVisibility(worker:x0:y0:)``), each followed by ``padding`` entries.
  private var depth = UnsafeMutablePointer<Float>.allocate(capacity: 0)
  private var linear = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 0)
  private var visible = UnsafeMutablePointer<Int32>.allocate(capacity: 0)
  /// Entries after each worker's tile buffer: four-wide passes over a row of the tile read
  /// and write back up to three entries past its end, which must be the worker's own.
  static let padding = 4
  /// Entries per worker in each tile buffer.
  private var workerStride: Int { tileSize * tileSize + Self.padding }

  init(width: Int, height: Int, factor: Int) {
    self.width = width
    self.height = height
    self.factor = factor
    // The largest multiple of the factor up to 64; a power of two for factors 1, 2, 4 and 8.
    tileSize = 64 / factor * factor
  }

  deinit {
    depth.deallocate()
    linear.deallocate()
    visible.deallocate()
  }

  /// Makes room for `count` workers' tiles.
  func reserveWorkers(_ count: Int) {
    guard count > workers else { return }
    depth.deallocate()
    linear.deallocate()
    visible.deallocate()
    depth = .allocate(capacity: count * workerStride)
    linear = .allocate(capacity: count * workerStride)
    visible = .allocate(capacity: count * workerStride)
    // Padding included: the four-wide passes read it.
    depth.initialize(repeating: .infinity, count: count * workerStride)
    visible.initialize(repeating: TileVisibility.none, count: count * workerStride)
    workers = count
  }

  /// Worker `worker`'s depth for the tile at `(x0, y0)`, indexed by frame sample coordinates
  /// as `y · tileSize + x` (the base is shifted so that the tile's own samples land in the
  /// buffer; only those are ever read or written).
  func tileDepth(worker: Int, x0: Int, y0: Int) -> UnsafeMutablePointer<Float> {
    depth + worker * workerStride - (y0 * tileSize + x0)
  }

  /// Writes the distances of the pixels whose samples are `xs × ys` (a tile's) from its
  /// `depth` (indexed as ``tileDepth(worker:x0:y0:)``), or +∞ for all with no depth (a tile
  /// nothing was drawn in).
  func storeDistances(_ depth: UnsafeMutablePointer<Float>?, _ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>) {
    guard let distances else { return }
    let outputWidth = width / factor
    let pixels = (xs.lowerBound / factor)...(xs.upperBound / factor)
    for py in (ys.lowerBound / factor)...(ys.upperBound / factor) {
      let out = distances + py * outputWidth
      // Where no surface is drawn: the shadow catcher's plane, if a shadow falls on it.
      (out + pixels.lowerBound).update(repeating: .infinity, count: pixels.count)
      if let shadow, let span = shadow.span(row: py, pixels: pixels) {
        (out + span.columns.lowerBound).update(from: shadow.depth + span.start, count: span.columns.count)
      }
      guard let depth else { continue }
      // Reversed depth: z = −near / distance, −1 on the near plane, rising to 0; +∞ when empty.
      if factor == 1 {
        // A select rather than a branch, so that the loop is vectorised.
        let row = depth + py * tileSize
        for px in pixels {
          let z = row[px]
          out[px] = z < 0 ? -near / z : out[px]
        }
        continue
      }
      for px in pixels {
        var nearest = Float.infinity
        for sy in (py * factor)..<((py + 1) * factor) {
          for sx in (px * factor)..<((px + 1) * factor) {
            nearest = Swift.min(nearest, depth[sy * tileSize + sx])
          }
        }
        if nearest < 0 { out[px] = -near / nearest }
      }
    }
  }

  /// Worker `worker`'s linear colour for the tile at `(x0, y0)`, indexed as ``tileDepth``.
  func tileColor(worker: Int, x0: Int, y0: Int) -> LinearSamples {
    LinearSamples(color: linear + worker * workerStride - (y0 * tileSize + x0))
  }

  /// Worker `worker`'s visible triangle per sample for the tile at `(x0, y0)`, indexed as
  /// ``tileDepth``: ``TileVisibility/none`` outside a visibility pass, and left so after one.
  func tileVisibility(worker: Int, x0: Int, y0: Int) -> UnsafeMutablePointer<Int32> {
    visible + worker * workerStride - (y0 * tileSize + x0)
  }

  /// Clears the samples `xs × ys` of `view` to the background and infinite depth.
  func clear<Store: SampleStore>(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, in view: TargetView<Store>) {
    let fill = view.store.encode(backgroundColor)
    for y in ys {
      (view.depth + y * view.depthWidth + xs.lowerBound).initialize(repeating: .infinity, count: xs.count)
      let row = y * view.colorWidth
      if let background {
        for x in xs { view.store.write(view.store.encode(background[x / factor, y / factor]), at: row + x) }
      } else {
        view.store.fill(fill, at: row + xs.lowerBound, count: xs.count)
      }
      let pixels = (xs.lowerBound / factor)...(xs.upperBound / factor)
      forEachShadowedPixel(row: y / factor, pixels: pixels) { px, color in
        let value = view.store.encode(color)
        for x in Swift.max(px * factor, xs.lowerBound)...Swift.min(px * factor + factor - 1, xs.upperBound) {
          view.store.write(value, at: row + x)
        }
      }
    }
  }

  /// Calls `body` with each output pixel among `pixels` of row `py` that the shadow catcher
  /// darkens, and the background's colour there, darkened (straight-alpha linear).
  @inline(__always)
  fileprivate func forEachShadowedPixel(
    row py: Int, pixels: ClosedRange<Int>, _ body: (_ px: Int, _ color: SIMD4<Float>) -> Void
  ) {
    guard let shadow, let span = shadow.span(row: py, pixels: pixels) else { return }
    for px in span.columns {
      let s = shadow.opacity[span.start + px - span.columns.lowerBound]
      guard s > 0 else { continue }
      body(px, ShadowLayer.darken(backgroundColor(px, py), by: s))
    }
  }

  /// The background's straight-alpha linear colour at output pixel `(x, y)`, before shadows.
  @inline(__always)
  private func backgroundColor(_ x: Int, _ y: Int) -> SIMD4<Float> {
    background?[x, y] ?? backgroundColor
  }
}

extension RenderTarget {
  /// Writes the background into the output pixels of the samples `xs × ys` (a tile no triangle
  /// touches: nothing to clear, draw or resolve), `output` being `outputWidth` pixels wide.
  func fillBackground(
    _ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, into output: EncodedSamples, outputWidth: Int
  ) {
    let fill = output.encode(backgroundColor)
    let pixels = (xs.lowerBound / factor)...(xs.upperBound / factor)
    for py in (ys.lowerBound / factor)...(ys.upperBound / factor) {
      let row = py * outputWidth
      if let background {
        for px in pixels { output.write(output.encode(background[px, py]), at: row + px) }
      } else {
        output.fill(fill, at: row + pixels.lowerBound, count: pixels.count)
      }
      // The shadow over what was just written: most of a row has none.
      forEachShadowedPixel(row: py, pixels: pixels) { px, color in
        output.write(output.encode(color), at: row + px)
      }
    }
  }
}
