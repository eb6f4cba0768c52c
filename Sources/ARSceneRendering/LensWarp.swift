import ARImage
import ARMath

/// An ideal pinhole camera's picture bent as a lens shows it: content is rendered for
/// ``pinhole`` (the lens camera's focal lengths over a region wide enough for every pixel the
/// lens reaches), then each pixel of the lens camera's image takes what the pinhole saw where
/// the lens bends it from. Rendering through a pinhole and resampling keeps the rasterizer's
/// straight edges and its speed; the resampling is bilinear, in premultiplied linear light.
///
/// Made once for a camera and lens (the per-pixel sources are computed here) and applied to
/// every frame that shares them.
public struct LensWarp: Sendable {
  /// The lens's camera: the raw frame's intrinsics and size, pixels (ARScene's convention).
  public let intrinsics: CameraIntrinsics<Double>
  /// The lens the frame is drawn through.
  public let lens: LensDistortion
  /// The pinhole camera to render content for: ``intrinsics``' focal lengths, the principal
  /// point moved so that its image covers the undistorted frame (a fisheye's corners past its
  /// image circle excepted), at most three times the frame a side.
  public let pinhole: CameraIntrinsics<Double>
  /// Each lens pixel's position in the pinhole's image, in texels from its first texel's
  /// centre; NaN where the lens has no inverse (past a fisheye's image circle).
  private let sources: [SIMD2<Float>]

  /// The warp of `lens` on a camera with `intrinsics`.
  public init(intrinsics k: CameraIntrinsics<Double>, lens: LensDistortion) {
    self.intrinsics = k
    self.lens = lens
    let (w, h) = (k.width, k.height)
    var low = SIMD2<Double>(0, 0), high = SIMD2(Double(w), Double(h))
    let steps = 64
    for i in 0...steps {
      let t = Double(i) / Double(steps)
      for p in [
        SIMD2(t * Double(w), 0), SIMD2(t * Double(w), Double(h)), SIMD2(0, t * Double(h)),
        SIMD2(Double(w), t * Double(h)),
      ] {
        guard let q = k.pinhole.undistortedPixel(p, lens: lens) else { continue }
        low = pointwiseMin(low, q)
        high = pointwiseMax(high, q)
      }
    }
    low = pointwiseMax(low - 2, SIMD2(-Double(w), -Double(h))).rounded(.down)
    high = pointwiseMin(high + 2, SIMD2(2 * Double(w), 2 * Double(h))).rounded(.up)
    pinhole = CameraIntrinsics(
      fx: k.fx, fy: k.fy, cx: k.cx - low.x, cy: k.cy - low.y, width: Int(high.x - low.x),
      height: Int(high.y - low.y))
    var sources = [SIMD2<Float>](repeating: SIMD2(.nan, .nan), count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        guard let q = k.pinhole.undistortedPixel(SIMD2(Double(x) + 0.5, Double(y) + 0.5), lens: lens) else {
          continue
        }
        sources[y * w + x] = SIMD2(Float(q.x - low.x - 0.5), Float(q.y - low.y - 0.5))
      }
    }
    self.sources = sources
  }

  /// `content` (rendered for ``pinhole``: 8-bit sRGB, straight alpha) as the lens shows it:
  /// premultiplied linear light at each pixel of ``intrinsics``' image (transparent black where
  /// the lens sees nothing of it).
  public func premultiplied(_ content: RGBA8Image) -> LinearImage {
    let table = SRGB.decodeTable
    var out = LinearImage(width: intrinsics.width, height: intrinsics.height, fill: .zero)
    for (i, source) in sources.enumerated() where source.x.isFinite {
      let (x0, y0) = (Int(source.x.rounded(.down)), Int(source.y.rounded(.down)))
      let (fx, fy) = (source.x - Float(x0), source.y - Float(y0))
      var sum = SIMD4<Float>.zero
      for (dx, dy, weight) in [
        (0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy),
      ] {
        let (sx, sy) = (x0 + dx, y0 + dy)
        guard weight > 0, sx >= 0, sy >= 0, sx < content.width, sy < content.height else { continue }
        let c = content[sx, sy]
        let a = Float(c.w) / 255
        sum += weight * SIMD4(table[Int(c.x)] * a, table[Int(c.y)] * a, table[Int(c.z)] * a, a)
      }
      out.pixels[i] = sum
    }
    return out
  }

  /// `content` as the lens shows it, 8-bit sRGB with straight alpha (see
  /// ``premultiplied(_:)``): a layer to composite as the pinhole's own renders are.
  public func warped(_ content: RGBA8Image) -> RGBA8Image {
    premultiplied(content).map { p in
      guard p.w > 0 else { return SIMD4<UInt8>.zero }
      let rgb = SIMD3(p.x, p.y, p.z) / p.w
      return SIMD4(
        SRGB.encode8(rgb.x), SRGB.encode8(rgb.y), SRGB.encode8(rgb.z), UInt8((p.w * 255).rounded()))
    }
  }

  /// A depth image rendered for ``pinhole`` (metres along the optical axis, infinity where
  /// empty) as the lens shows it: each pixel takes the nearest source pixel's depth, as depths
  /// must not be blended across an edge.
  public func warped(_ depth: DepthImage) -> DepthImage {
    var out = DepthImage(width: intrinsics.width, height: intrinsics.height, fill: .infinity)
    for (i, source) in sources.enumerated() where source.x.isFinite {
      let (sx, sy) = (Int(source.x.rounded()), Int(source.y.rounded()))
      guard sx >= 0, sy >= 0, sx < depth.width, sy < depth.height else { continue }
      out.pixels[i] = depth[sx, sy]
    }
    return out
  }

  /// Where the lens shows a point the pinhole camera with ``intrinsics`` projects to `pixel`.
  public func distorted(_ pixel: SIMD2<Double>) -> SIMD2<Double> {
    intrinsics.pinhole.distortedPixel(pixel, lens: lens)
  }
}
