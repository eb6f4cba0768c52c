import ARAssets

/// The colour and depth buffers a frame is drawn into, at the sampling resolution (output size
/// times the supersampling factor), row-major from the top.
///
/// The buffers start uninitialised: each tile clears its own region just before drawing into it,
/// on the thread that draws it, so clearing runs in parallel and touches memory while it is hot.
final class RenderTarget: @unchecked Sendable {
  let width: Int
  let height: Int
  /// Linear-light RGBA (or raw values for the unlit and Lambert comparison modes).
  let color: UnsafeMutablePointer<SIMD4<Float>>
  /// NDC depth in [−1, 1]; +∞ where nothing was drawn.
  let depth: UnsafeMutablePointer<Float>
  /// What a cleared sample holds: a camera frame (output size, each pixel covering
  /// `factor × factor` samples) or one colour.
  var background: LinearImage? = nil
  var backgroundColor = SIMD4<Float>(0, 0, 0, 1)
  let factor: Int

  init(width: Int, height: Int, factor: Int) {
    self.width = width
    self.height = height
    self.factor = factor
    color = .allocate(capacity: width * height)
    depth = .allocate(capacity: width * height)
  }

  deinit {
    color.deallocate()
    depth.deallocate()
  }

  /// Clears the samples `xs × ys` to the background and infinite depth.
  func clear(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>) {
    for y in ys {
      let row = y * width
      (depth + row + xs.lowerBound).initialize(repeating: .infinity, count: xs.count)
      if let background {
        for x in xs { (color + row + x).initialize(to: background[x / factor, y / factor]) }
      } else {
        (color + row + xs.lowerBound).initialize(repeating: backgroundColor, count: xs.count)
      }
    }
  }
}
