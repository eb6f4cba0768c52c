import ARAssets

/// The colour and depth buffers a frame is drawn into, at the sampling resolution (output size
/// times the supersampling factor), row-major from the top.
///
/// The buffers start uninitialised: each tile clears its own region just before drawing into it,
/// on the thread that draws it, so clearing runs in parallel and touches memory while it is hot.
/// Colour lives in one of two forms (``SampleStore``): linear floats here, allocated when a frame
/// first needs them, or 8-bit samples written straight into the output image.
final class RenderTarget: @unchecked Sendable {
  let width: Int
  let height: Int
  /// NDC depth in [−1, 1]; +∞ where nothing was drawn.
  let depth: UnsafeMutablePointer<Float>
  /// What a cleared sample holds: a camera frame (output size, each pixel covering
  /// `factor × factor` samples) or one colour.
  var background: LinearImage? = nil
  var backgroundColor = SIMD4<Float>(0, 0, 0, 1)
  let factor: Int
  private var linear: UnsafeMutablePointer<SIMD4<Float>>?

  init(width: Int, height: Int, factor: Int) {
    self.width = width
    self.height = height
    self.factor = factor
    depth = .allocate(capacity: width * height)
  }

  deinit {
    depth.deallocate()
    linear?.deallocate()
  }

  /// Linear-light float samples (or raw values in the comparison modes).
  var linearSamples: LinearSamples {
    if linear == nil { linear = .allocate(capacity: width * height) }
    return LinearSamples(color: linear!)
  }

  /// Clears the samples `xs × ys` of `store` to the background and infinite depth.
  func clear<Store: SampleStore>(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, in store: Store) {
    let fill = store.encode(backgroundColor)
    for y in ys {
      let row = y * width
      (depth + row + xs.lowerBound).initialize(repeating: .infinity, count: xs.count)
      if let background {
        for x in xs { store.write(store.encode(background[x / factor, y / factor]), at: row + x) }
      } else {
        for x in xs { store.write(fill, at: row + x) }
      }
    }
  }
}
