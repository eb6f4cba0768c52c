import ARImage
import ARMath

/// The blur a moving camera gives the real world, given to the virtual content too, as
/// RealityKit does: each overlay pixel is averaged along the path its surface point took across
/// the image while the shutter was open, from the camera's motion since the previous frame.
///
/// Where the overlay is empty, the path is that of a point at the content's median depth, so a
/// turning camera (whose image motion does not depend on depth) smears the content's edges
/// outwards as it smears the camera image's.
public struct MotionBlur: Sendable, Equatable {
  /// The fraction of the frame interval the shutter is open, 0…1 (0.5: a 180° shutter; a phone
  /// in daylight exposes for much less of its frame, indoors for most of it).
  public var shutter: Double
  /// Samples along each pixel's path, 2…64.
  public var samples: Int
  /// Where in the exposure the frame's timestamp falls, 0…1: 0 its start, 0.5 its middle (what
  /// ARKit's frame timestamps and most captures' mean, and the default), 1 its end. The blur
  /// spans the camera's motion over the open shutter around that moment, so content drawn at
  /// the timestamp's pose sits where the blurred camera image has its subject.
  public var phase: Double

  /// A blur over `shutter` of the frame interval, from `samples` renders, the timestamp at
  /// `phase` of the exposure.
  public init(shutter: Double = 0.5, samples: Int = 12, phase: Double = 0.5) {
    self.shutter = shutter
    self.samples = samples
    self.phase = phase
  }

  /// `overlay` (straight alpha) and its `depth` (metres along the view axis, +∞ where nothing
  /// is drawn) blurred by the camera's motion from `previous` (the previous frame's camera) to
  /// `camera` (this frame's): colours averaged in linear light weighted by alpha, and each
  /// pixel's depth the nearest of the surfaces averaged into it. The rows are shared among at
  /// most `threads` worker threads (the result is the same for any count).
  public func apply(
    to overlay: RGBA8Image, depth: DepthImage, camera: PinholeCamera<Double>, previous: PinholeCamera<Double>,
    threads: Int = 2
  ) -> (image: RGBA8Image, depth: DepthImage) {
    let (w, h) = (overlay.width, overlay.height)
    // The content's median depth, from a sample of at most ~16k of its pixels (sorting all of a
    // 1920×1440 frame's would cost more than the blur).
    let stride = max(1, depth.pixels.count / 16_384)
    let sample = Swift.stride(from: 0, to: depth.pixels.count, by: stride).map { depth.pixels[$0] }.filter(
      \.isFinite)
    let content = sample.isEmpty ? depth.pixels.filter(\.isFinite) : sample
    guard shutter > 0, samples >= 2, !content.isEmpty else { return (overlay, depth) }
    let median = Double(content.sorted()[content.count / 2])
    /// How far the surface seen at (x, y) at `distance` moved across the image over the frame.
    @Sendable func motion(_ x: Double, _ y: Double, _ distance: Double) -> SIMD2<Double> {
      let inCamera = CameraConvention.convert(
        camera.intrinsics.unproject(SIMD2(x, y), depth: distance), from: .opencv, to: .arkit)
      let world = camera.worldFromCamera.transformPoint(inCamera)
      guard let before = previous.project(world) else { return .zero }
      return SIMD2(x, y) - before.pixel
    }
    // Only pixels a path from the content can reach: the content's box, widened by the motion
    // at its corners.
    var low = SIMD2(w, h), high = SIMD2(-1, -1)
    for y in 0..<h {
      for x in 0..<w where overlay.pixels[y * w + x].w > 0 {
        (low, high) = (pointwiseMin(low, SIMD2(x, y)), pointwiseMax(high, SIMD2(x, y)))
      }
    }
    guard high.x >= 0 else { return (overlay, depth) }
    var reach = 0.0
    for corner in [low, high, SIMD2(low.x, high.y), SIMD2(high.x, low.y)] {
      let v = motion(Double(corner.x) + 0.5, Double(corner.y) + 0.5, median) * shutter
      reach = max(reach, abs(v.x), abs(v.y))
    }
    let margin = Int(min(reach, Double(max(w, h))).rounded(.up)) + 1
    let xs = max(0, low.x - margin)..<min(w, high.x + margin + 1)
    let ys = max(0, low.y - margin)..<min(h, high.y + margin + 1)
    var outPixels = overlay.pixels, outDepth = depth.pixels
    let table = SRGB.decodeTable
    let n = samples, shutter = self.shutter, phase = min(1, max(0, self.phase))
    outPixels.withUnsafeMutableBufferPointer { op in
      outDepth.withUnsafeMutableBufferPointer { od in
        let (pixelsOut, depthOut) = (
          UnsafeSendableMutablePointer(op.baseAddress!), UnsafeSendableMutablePointer(od.baseAddress!)
        )
        // Four bands a thread: the content's rows differ in cost.
        let bands = min(ys.count, max(1, threads) * 4)
        forEachBand(bands, threads: threads) { band in
          let rows = ys.lowerBound + ys.count * band / bands..<ys.lowerBound + ys.count * (band + 1) / bands
          for y in rows {
            for x in xs {
              let i = y * w + x
              let d = depth.pixels[i]
              let v = motion(Double(x) + 0.5, Double(y) + 0.5, d.isFinite ? Double(d) : median) * shutter
              var colour = SIMD3<Float>.zero, alpha: Float = 0, nearest = Float.infinity
              for k in 0..<n {
                // A sample τ open-shutter lengths from the timestamp (−phase … 1 − phase) saw the
                // content τ·v from where it is drawn: this pixel takes what is drawn at −τ·v.
                // (s = −τ, its samples in the order that keeps a centred blur's sums as before.)
                let s = phase - (Double(n - 1 - k) + 0.5) / Double(n)
                let sx = Int((Double(x) + 0.5 + s * v.x).rounded(.down)),
                  sy = Int((Double(y) + 0.5 + s * v.y).rounded(.down))
                guard sx >= 0, sy >= 0, sx < w, sy < h else { continue }
                let p = overlay.pixels[sy * w + sx]
                guard p.w > 0 else { continue }
                let a = Float(p.w) / 255
                colour += SIMD3(table[Int(p.x)], table[Int(p.y)], table[Int(p.z)]) * a
                alpha += a
                nearest = min(nearest, depth.pixels[sy * w + sx])
              }
              guard alpha > 0 else {
                pixelsOut.pointer[i] = .zero
                depthOut.pointer[i] = .infinity
                continue
              }
              let rgb = colour / alpha
              pixelsOut.pointer[i] = SIMD4(
                SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z),
                UInt8((alpha / Float(n) * 255).rounded()))
              depthOut.pointer[i] = nearest
            }
          }
        }
      }
    }
    return (
      RGBA8Image(width: w, height: h, pixels: outPixels), DepthImage(width: w, height: h, pixels: outDepth)
    )
  }
}
