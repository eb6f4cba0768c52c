/// The colour and depth buffers a frame is drawn into, at the sampling resolution (output size
/// times the supersampling factor), row-major from the top.
struct RenderTarget {
  let width: Int
  let height: Int
  /// Linear-light RGBA (or raw values for the unlit and Lambert comparison modes).
  var color: [SIMD4<Float>]
  /// NDC depth in [−1, 1]; +∞ where nothing was drawn.
  var depth: [Float]

  init(width: Int, height: Int, background: [SIMD4<Float>]) {
    precondition(background.count == width * height)
    self.width = width
    self.height = height
    color = background
    depth = Array(repeating: .infinity, count: width * height)
  }
}
