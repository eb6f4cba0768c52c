import ARImage
import ARMath
import ARMesh
import ARRender
import ARTestSupport
import Foundation
import Testing

/// The shadow catcher's shadow against the analytic one: a unit cube standing on y = 0 under a
/// directional light casts the convex hull of its footprint and its top face pushed along the
/// light onto the ground.
@Suite("Shadow catcher")
struct ShadowTests {
  /// The unit cube standing on y = 0, centred on the y axis, as 12 outward triangles.
  static let cube: Mesh = {
    var positions: [SIMD3<Float>] = []
    for i in 0..<8 {
      positions.append(SIMD3(i & 1 == 0 ? -0.5 : 0.5, i & 2 == 0 ? 0 : 1, i & 4 == 0 ? -0.5 : 0.5))
    }
    let faces: [[UInt32]] = [
      [0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6],
    ]
    let indices = faces.flatMap { f in [f[0], f[1], f[2], f[0], f[2], f[3]] }
    return Mesh(positions: positions, normals: positions.map { $0 - SIMD3(0, 0.5, 0) }, indices: indices)
  }()

  static let light = SIMD3<Double>(-1.3, -1, -0.4)
  static let intrinsics = CameraIntrinsics<Double>(
    fx: 520, fy: 540, cx: 322, cy: 236, width: 640, height: 480)
  static let pose = RigidTransform<Double>.lookAt(
    eye: SIMD3(1.2, 3.5, 2.8), target: SIMD3(-0.6, 0, -0.2), up: SIMD3(0, 1, 0))!
  static let grey = SIMD4<Float>(0.5, 0.5, 0.5, 1)

  /// The analytic shadow on the ground: the hull of the footprint and the top face moved along
  /// the light to y = 0, counter-clockwise in (x, z).
  static var outline: [SIMD2<Double>] {
    let shift = SIMD2(light.x, light.z) / -light.y  // the top face (y = 1) lands this far away
    var points: [SIMD2<Double>] = []
    for sx in [-0.5, 0.5] {
      for sz in [-0.5, 0.5] { points += [SIMD2(sx, sz), SIMD2(sx, sz) + shift] }
    }
    return convexHull(points)
  }

  /// Andrew's monotone chain.
  static func convexHull(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
    let sorted = points.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
    func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
      (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }
    var lower: [SIMD2<Double>] = [], upper: [SIMD2<Double>] = []
    for p in sorted {
      while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 {
        lower.removeLast()
      }
      lower.append(p)
    }
    for p in sorted.reversed() {
      while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 {
        upper.removeLast()
      }
      upper.append(p)
    }
    return Array(lower.dropLast() + upper.dropLast())
  }

  /// `p`'s distance to the polygon's boundary, positive inside, and whether the nearest point
  /// is on an edge at least `margin` from its ends (where a blurred straight edge's profile holds).
  static func signedDistance(_ p: SIMD2<Double>, to polygon: [SIMD2<Double>], margin: Double) -> (
    Double, Bool
  ) {
    var best = Double.infinity, clearOfCorners = false, inside = true
    for i in polygon.indices {
      let a = polygon[i], b = polygon[(i + 1) % polygon.count]
      let edge = b - a, length = (edge * edge).sum().squareRoot()
      let along = ((p - a) * edge).sum() / length
      let side = (edge.x * (p.y - a.y) - edge.y * (p.x - a.x)) / length
      if side < 0 { inside = false }
      let nearest = a + edge * min(max(along / length, 0), 1)
      let d = ((p - nearest) * (p - nearest)).sum().squareRoot()
      if d < best { (best, clearOfCorners) = (d, along > margin && along < length - margin) }
    }
    return (inside ? best : -best, clearOfCorners)
  }

  /// The cube rendered over grey with and without the catcher's shadow, and which pixels show
  /// the cube.
  static func render(_ catcher: ShadowCatcher, threads: Int = 2) throws -> (
    shadowed: RGBA8Image, plain: RGBA8Image, onCube: [Bool]
  ) {
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics<Float>(intrinsics), worldFromCamera: pose, near: 0.01, far: 100)
    let draws = [try DrawCall(mesh: cube)]
    let settings = RenderSettings(supersampling: 1, threads: threads)
    let renderer = FrameRenderer()
    let shadowed = try renderer.render(
      draws, camera: camera, shading: .lit(Lighting()), backgroundColor: grey, settings: settings,
      shadows: catcher)
    let (plain, depth) = try renderer.renderWithDepth(
      draws, camera: camera, shading: .lit(Lighting()), backgroundColor: grey, settings: settings)
    return (shadowed, plain, depth.pixels.map(\.isFinite))
  }

  /// Where pixel (x, y)'s centre ray meets y = 0, as (x, z).
  static func ground(_ x: Int, _ y: Int) -> SIMD2<Double>? {
    let ray = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose).ray(
      through: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
    guard ray.direction.y < 0 else { return nil }
    let t = -ray.origin.y / ray.direction.y
    let p = ray.origin + t * ray.direction
    return SIMD2(p.x, p.z)
  }

  @Test("a hard shadow fills the analytic outline and nothing outside it, to a shadow-map texel")
  func hardOutline() throws {
    let catcher = ShadowCatcher(lightDirection: Self.light, opacity: 0.6, softness: 0, resolution: 2048)
    let (shadowed, plain, onCube) = try Self.render(catcher)
    let b = SRGB.encode8(0.5), background = SIMD4(b, b, b, 255)
    let dark = SRGB.encode8(0.5 * 0.4)
    // The map's texel is the cube's extent across the light over 2048; a texel's diagonal either
    // side of the outline may go either way.
    let texel = 2.8 / 2048
    var inside = 0, outside = 0
    for y in 0..<shadowed.height {
      for x in 0..<shadowed.width where !onCube[y * shadowed.width + x] {
        guard let g = Self.ground(x, y) else { continue }
        let (d, _) = Self.signedDistance(g, to: Self.outline, margin: 0)
        if d > 2 * texel {
          #expect(shadowed[x, y] == SIMD4(dark, dark, dark, 255), "pixel (\(x), \(y)), \(d) m inside")
          inside += 1
        } else if d < -2 * texel {
          #expect(shadowed[x, y] == background, "pixel (\(x), \(y)), \(-d) m outside")
          outside += 1
        }
      }
    }
    #expect(inside > 5000 && outside > 50000, "\(inside) inside, \(outside) outside")
    // The cube itself is drawn as before: the shadow is only on the ground.
    for i in plain.pixels.indices where onCube[i] { #expect(shadowed.pixels[i] == plain.pixels[i]) }
  }

  @Test("a soft shadow's edge follows the Gaussian profile of its softness across the analytic outline")
  func softEdge() throws {
    let sigma = 0.03
    let catcher = ShadowCatcher(lightDirection: Self.light, opacity: 0.6, softness: sigma, resolution: 1024)
    let (shadowed, _, onCube) = try Self.render(catcher)
    let w = Self.light / (Self.light * Self.light).sum().squareRoot()
    var checked = 0, worst = 0.0
    for y in 0..<shadowed.height {
      for x in 0..<shadowed.width where !onCube[y * shadowed.width + x] {
        guard let g = Self.ground(x, y) else { continue }
        let (d, clear) = Self.signedDistance(g, to: Self.outline, margin: 4 * sigma)
        guard clear, abs(d) < 3 * sigma else { continue }
        // Ground distance across the edge, foreshortened as the light sees it.
        let edge = Self.outline.indices.map { i -> SIMD2<Double> in
          let a = Self.outline[i], b = Self.outline[(i + 1) % Self.outline.count]
          return b - a
        }.min { a, b in
          abs(Self.lineDistance(g, Self.outline, a)) < abs(Self.lineDistance(g, Self.outline, b))
        }!
        let across = SIMD3(edge.y, 0, -edge.x) / (edge * edge).sum().squareRoot()
        let scale = (1 - pow((across * w).sum(), 2)).squareRoot()
        let expected = 0.5 * erfc(-d * scale / (sigma * 2.0.squareRoot()))
        let measured = Double(1 - SRGB.decodeTable[Int(shadowed[x, y].x)] / 0.5) / 0.6
        worst = max(worst, abs(measured - expected))
        checked += 1
      }
    }
    #expect(checked > 500)
    #expect(worst < 0.08, "coverage off the Gaussian profile by up to \(worst)")
  }

  /// The distance of `p` from the line through the polygon's edge with direction `edge`.
  static func lineDistance(_ p: SIMD2<Double>, _ polygon: [SIMD2<Double>], _ edge: SIMD2<Double>) -> Double {
    let i = polygon.indices.first { polygon[($0 + 1) % polygon.count] - polygon[$0] == edge }!
    let a = polygon[i]
    return (edge.x * (p.y - a.y) - edge.y * (p.x - a.x)) / (edge * edge).sum().squareRoot()
  }

  @Test("the shadow is the same bytes on 1 and 2 threads, absent when the light comes from below the plane")
  func deterministicAndOneSided() throws {
    let catcher = ShadowCatcher(lightDirection: Self.light, opacity: 0.6, softness: 0.02)
    #expect(try Self.render(catcher, threads: 1).shadowed == Self.render(catcher, threads: 2).shadowed)
    var below = catcher
    below.lightDirection = -Self.light
    let (shadowed, plain, _) = try Self.render(below)
    #expect(shadowed == plain)
  }

  @Test("over nothing, the shadow is black with its opacity as alpha, and has the plane's depth")
  func overlayAlpha() throws {
    let catcher = ShadowCatcher(lightDirection: Self.light, opacity: 0.6, softness: 0)
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics<Float>(Self.intrinsics), worldFromCamera: Self.pose, near: 0.01, far: 100)
    let (image, depth) = try FrameRenderer().renderWithDepth(
      [try DrawCall(mesh: Self.cube)], camera: camera, shading: .lit(Lighting()), backgroundColor: .zero,
      shadows: catcher)
    let shadowPixels = image.pixels.indices.filter { image.pixels[$0] == SIMD4(0, 0, 0, 153) }
    #expect(shadowPixels.count > 5000, "\(shadowPixels.count)")
    for i in shadowPixels.prefix(2000) {
      let (x, y) = (i % image.width, i / image.width)
      let ray = PinholeCamera(intrinsics: Self.intrinsics, worldFromCamera: Self.pose)
        .ray(through: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
      let t = -ray.origin.y / ray.direction.y
      let alongView = t * (ray.direction * Self.pose.transformDirection(SIMD3(0, 0, -1))).sum()
      #expect(abs(Double(depth.pixels[i]) - alongView) < 1e-4 * alongView)
    }
  }

  @Test(
    "drawn in the frame, the shadow is the background darkened by the public shadow layer, and its depth the plane's",
    arguments: [1, 2])
  func sameAsLayerOverBackground(supersampling: Int) throws {
    let catcher = ShadowCatcher(lightDirection: Self.light, opacity: 0.7, softness: 0.03)
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics<Float>(Self.intrinsics), worldFromCamera: Self.pose, near: 0.01, far: 100)
    let draws = [try DrawCall(mesh: Self.cube)]
    // A camera frame of seeded colours, some half transparent.
    var random = SplitMix64(seed: 7)
    let frame = LinearImage(
      width: 640, height: 480,
      pixels: (0..<(640 * 480)).map { _ in
        SIMD4(
          Float.random(in: 0...1, using: &random), Float.random(in: 0...1, using: &random),
          Float.random(in: 0...1, using: &random), Bool.random(using: &random) ? 1 : 0.5)
      })
    let settings = RenderSettings(supersampling: supersampling, threads: 2)
    let (image, depth) = try FrameRenderer().renderWithDepth(
      draws, camera: camera, shading: .lit(Lighting()), background: frame, settings: settings,
      shadows: catcher)
    // The same frame darkened beforehand, drawn without a catcher.
    let layer = try catcher.shadowLayer(casting: draws, camera: camera)
    var darkened = frame
    var shadowed = 0
    for i in darkened.pixels.indices where layer.opacity.pixels[i] > 0 {
      let (s, p) = (layer.opacity.pixels[i], darkened.pixels[i])
      let alpha = s + p.w * (1 - s)
      darkened.pixels[i] = SIMD4(SIMD3(p.x, p.y, p.z) * (p.w * (1 - s) / alpha), alpha)
      shadowed += 1
    }
    #expect(shadowed > 5000)
    let (expected, plainDepth) = try FrameRenderer().renderWithDepth(
      draws, camera: camera, shading: .lit(Lighting()), background: darkened, settings: settings)
    #expect(image == expected)
    let merged = zip(plainDepth.pixels, layer.depth.pixels).map { $0.isFinite ? $0 : $1 }
    #expect(depth.pixels == merged)
  }

  @Test("a catcher out of range is refused, naming the field")
  func invalid() {
    for bad in [
      ShadowCatcher(lightDirection: .zero), ShadowCatcher(lightDirection: Self.light, opacity: 1.5),
      ShadowCatcher(lightDirection: Self.light, softness: .nan),
      ShadowCatcher(lightDirection: Self.light, resolution: 10),
      ShadowCatcher(normal: .zero, lightDirection: Self.light),
    ] {
      expectError(RenderError.self, "invalidSettings") { try bad.validate() }
    }
  }
}
