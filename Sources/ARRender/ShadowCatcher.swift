import ARImage
import ARMath

/// An invisible ground plane that shows only the shadows the models cast on it from one
/// directional light: the grounding shadow AR apps draw under anchored content (ARKit's and
/// RealityKit's "shadow catcher" or "grounding shadow"). Where the plane is lit it shows
/// nothing; where it is in shadow, the real surface behind it (the camera image or background
/// colour) is darkened, and an overlay rendered over nothing gets black with the shadow's
/// opacity as alpha.
///
/// The shadow is a shadow map seen along the light, filtered: its edge is soft over about
/// ``softness`` either side, and its centre line is the exact outline of what blocks the light.
public struct ShadowCatcher: Sendable, Equatable {
  /// A point on the plane, world metres.
  public var point: SIMD3<Double>
  /// The plane's normal, world frame, on the side the content stands on (unit length not required).
  public var normal: SIMD3<Double>
  /// The way the light travels (from the light into the scene), world frame; a light from
  /// behind the plane casts nothing onto it.
  public var lightDirection: SIMD3<Double>
  /// How dark full shadow is: the fraction of the real surface's light it removes, 0…1.
  public var opacity: Float
  /// The penumbra: standard deviation of the Gaussian filter across the shadow's edge, metres
  /// across the light (0: as hard as the shadow map's texels).
  public var softness: Double
  /// Shadow-map texels along its longer side (64…8192): the map covers the models' extent as
  /// seen from the light, so its texel is that extent divided by this.
  public var resolution: Int

  /// A shadow catcher; by default the plane y = 0 (ARKit's world: +Y up) with a half-dark
  /// shadow softened over 2 cm.
  public init(
    point: SIMD3<Double> = .zero, normal: SIMD3<Double> = SIMD3(0, 1, 0), lightDirection: SIMD3<Double>,
    opacity: Float = 0.5, softness: Double = 0.02, resolution: Int = 1024
  ) {
    self.point = point
    self.normal = normal
    self.lightDirection = lightDirection
    self.opacity = opacity
    self.softness = softness
    self.resolution = resolution
  }

  /// Checks every field against its range.
  ///
  /// - Throws: ``RenderError/invalidSettings(_:)`` naming the field out of range.
  public func validate() throws(RenderError) {
    guard point.isFinite else { throw .invalidSettings("the shadow plane's point must be finite") }
    guard normal.isFinite, normal.lengthSquared > 0 else {
      throw .invalidSettings("the shadow plane's normal must be finite and non-zero")
    }
    guard lightDirection.isFinite, lightDirection.lengthSquared > 0 else {
      throw .invalidSettings("the shadow's light direction must be finite and non-zero")
    }
    guard (0...1).contains(opacity) else { throw .invalidSettings("shadow opacity must be 0 to 1") }
    guard softness.isFinite, softness >= 0 else {
      throw .invalidSettings("shadow softness must be a finite number of metres ≥ 0")
    }
    guard (64...8192).contains(resolution) else {
      throw .invalidSettings("shadow resolution must be 64 to 8192 texels")
    }
  }

  /// The shadow on each pixel of `camera`'s image: its opacity (0 where the plane is lit or not
  /// seen) and the distance along the view axis to the plane there (metres; +∞ where not seen).
  ///
  /// - Parameters:
  ///   - draws: What casts shadows: every triangle of every draw call, two-sided.
  ///   - camera: The camera whose pixels are shaded; only the plane between its near and far
  ///     planes is seen.
  ///   - threads: Worker threads; the result is the same for any count.
  public func shadowLayer(
    casting draws: [DrawCall], camera: RenderCamera, threads: Int = 2
  ) throws(RenderError) -> (opacity: DepthImage, depth: DepthImage) {
    try validate()
    return shadowLayer(
      of: ShadowMap(casting: draws, onto: self, threads: threads), camera: camera, threads: threads
    ).images(width: camera.intrinsics.width, height: camera.intrinsics.height)
  }

  /// The shadow layer from a map already built for these casters, over the pixels the map
  /// can reach (none without a map).
  func shadowLayer(of map: ShadowMap?, camera: RenderCamera, threads: Int) -> ShadowLayer {
    guard let map else { return ShadowLayer(columns: 0..<0, rows: 0..<0) }
    let (columns, rows) = Self.pixelsReached(by: map, camera: camera)
    var layer = ShadowLayer(columns: columns, rows: rows)
    let view = PlaneView(camera: camera, plane: self, map: map)
    layer.opacity.withUnsafeMutableBufferPointer { o in
      layer.depth.withUnsafeMutableBufferPointer { d in
        let (opacityOut, depthOut) = (
          UnsafeSendableMutablePointer(o.baseAddress!), UnsafeSendableMutablePointer(d.baseAddress!)
        )
        let bands = max(1, min(threads, rows.count))
        forEachBand(bands, threads: bands) { band in
          let first = rows.count * band / bands, end = rows.count * (band + 1) / bands
          for row in first..<end {
            // Each row's outputs are shifted so that pixel x lands at its place in the box.
            let start = row * columns.count - columns.lowerBound
            view.shadeRow(
              rows.lowerBound + row, columns: columns, map: map, opacity: self.opacity,
              opacityOut.pointer + start, depthOut.pointer + start)
          }
        }
      }
    }
    return layer
  }
}

extension ShadowCatcher {
  /// The pixel columns and rows where `map`'s part of the plane can show: the box around its
  /// corners' projections, or the whole image when a corner is not in front of the camera.
  static func pixelsReached(by map: ShadowMap, camera: RenderCamera) -> (Range<Int>, Range<Int>) {
    let k = camera.intrinsics
    let whole = (0..<k.width, 0..<k.height)
    let cameraFromWorld = camera.worldFromCamera.inverse
    var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
    for corner in map.planeCorners {
      let p = cameraFromWorld.transformPoint(corner)
      guard -p.z > Double(camera.near) * 0.5 else { return whole }
      let pixel = SIMD2(Double(k.cx) + Double(k.fx) * p.x / -p.z, Double(k.cy) - Double(k.fy) * p.y / -p.z)
      low = pointwiseMin(low, pixel)
      high = pointwiseMax(high, pixel)
    }
    guard low.x.isFinite, high.x.isFinite, low.y.isFinite, high.y.isFinite else { return whole }
    // Clamped in Double first: a corner far off screen may be beyond Int's range.
    func clamp(_ v: Double, _ limit: Int) -> Int { Int(min(max(v, 0), Double(limit))) }
    let x0 = clamp((low.x - 2).rounded(.down), k.width),
      x1 = max(x0, clamp((high.x + 2).rounded(.up), k.width))
    let y0 = clamp((low.y - 2).rounded(.down), k.height),
      y1 = max(y0, clamp((high.y + 2).rounded(.up), k.height))
    return (x0..<x1, y0..<y1)
  }
}

/// How the camera's pixels map onto the catcher's plane and into the shadow map: a pixel's ray
/// meets the plane at a distance linear in the pixel over one linear denominator, so each
/// pixel costs a few multiplications and one division (in `Double`: the camera may be
/// kilometres from the world origin).
private struct PlaneView {
  /// The plane's normal, and each pixel ray's (in world, camera −Z component −1) parts along
  /// x, along y and constant, dotted with the normal and with the map's two axes.
  let normalDot: SIMD3<Double>, uDot: SIMD3<Double>, vDot: SIMD3<Double>
  /// The camera centre relative to the map's origin: along the normal (its height above the
  /// plane, times |n|), and along the map's axes.
  let height: Double, cameraU: Double, cameraV: Double
  let near: Double, far: Double

  init(camera: RenderCamera, plane: ShadowCatcher, map: ShadowMap) {
    let k = camera.intrinsics
    let r = camera.worldFromCamera.rotation
    let (fx, fy, cx, cy) = (Double(k.fx), Double(k.fy), Double(k.cx), Double(k.cy))
    // Ray (unnormalised, camera z = −1) through pixel (px, py): ax·px + ay·py + a1, in world.
    let ax = r.act(SIMD3(1 / fx, 0, 0))
    let ay = r.act(SIMD3(0, -1 / fy, 0))
    let a1 = r.act(SIMD3(-cx / fx, cy / fy, -1))
    func dots(_ e: SIMD3<Double>) -> SIMD3<Double> { SIMD3(e.dot(ax), e.dot(ay), e.dot(a1)) }
    normalDot = dots(plane.normal)
    uDot = dots(map.uAxis)
    vDot = dots(map.vAxis)
    let c = camera.worldFromCamera.translation - map.origin
    height = c.dot(plane.normal)
    cameraU = c.dot(map.uAxis)
    cameraV = c.dot(map.vAxis)
    near = Double(camera.near)
    far = Double(camera.far)
  }

  /// Writes row `y`'s shadow opacity and plane distance in `columns`, pixel `x`'s at
  /// `opacityOut[x]` and `depthOut[x]`; leaves the others as they were.
  func shadeRow(
    _ y: Int, columns: Range<Int>, map: ShadowMap, opacity: Float, _ opacityOut: UnsafeMutablePointer<Float>,
    _ depthOut: UnsafeMutablePointer<Float>
  ) {
    let py = Double(y) + 0.5
    let (n0, u0, v0) = (normalDot.y * py + normalDot.z, uDot.y * py + uDot.z, vDot.y * py + vDot.z)
    for x in columns {
      let px = Double(x) + 0.5
      // The ray meets the plane at t (the distance along the view axis, as the ray's camera z is −1).
      let t = -height / (normalDot.x * px + n0)
      guard t >= near, t <= far else { continue }
      let coverage = map.coverage(u: cameraU + t * (uDot.x * px + u0), v: cameraV + t * (vDot.x * px + v0))
      guard coverage > 0 else { continue }
      opacityOut[x] = opacity * coverage
      depthOut[x] = Float(t)
    }
  }
}
