import ARHit
import ARImage
import ARMath
import ARScene
import ARSceneRendering
import ARTestSupport
import Testing

/// Rendering a phone screen: the camera image turned and aspect-filled as ARKit's views show
/// it, with the content drawn where the tap mapping says it shows.
@Suite("Phone-screen rendering")
struct ViewportRenderingTests {
  /// A captured image with fx ≠ fy and an off-centre principal point, looking about the world.
  static let camera = PinholeCamera(
    intrinsics: CameraIntrinsics<Double>(
      fx: 1450, fy: 1462, cx: 947.5, cy: 731.25, width: 1920, height: 1440),
    worldFromCamera: RigidTransform.lookAt(
      eye: SIMD3(4, 1.6, 3), target: SIMD3(0, 0.5, -2), up: SIMD3(0, 1, 0))!)

  static let screens: [(SIMD2<Int>?, InterfaceOrientation)] = [
    (nil, .landscapeRight), (SIMD2(2532, 1170), .landscapeRight), (SIMD2(1170, 2532), .portrait),
    (SIMD2(2532, 1170), .landscapeLeft), (SIMD2(1170, 2532), .portraitUpsideDown), (nil, .portrait),
    (SIMD2(640, 640), .portrait),
  ]

  @Test(
    "a world point projects through the screen's camera where the tap mapping shows its image pixel",
    arguments: 0..<7)
  func viewCameraAgreesWithTapMapping(_ screen: Int) throws {
    let (size, orientation) = Self.screens[screen]
    let viewport = try TapViewport.screen(
      showing: Self.camera.intrinsics, size: size, orientation: orientation)
    let view = viewport.viewCamera(for: Self.camera)
    #expect(view.intrinsics.width == Int(viewport.size.x) && view.intrinsics.height == Int(viewport.size.y))
    var random = SplitMix64(seed: UInt64(screen))
    var checked = 0
    for _ in 0..<500 {
      let p = SIMD3(
        Double.random(in: -4...4, using: &random), Double.random(in: -1...3, using: &random),
        Double.random(in: -8...2, using: &random))
      guard let image = Self.camera.project(p), let shown = view.project(p) else { continue }
      let expected = viewport.viewPoint(forImagePixel: image.pixel)
      #expect(simd_distance(shown.pixel, expected) < 1e-8, "\(p): \(shown.pixel) against \(expected)")
      #expect(abs(shown.depth - image.depth) < 1e-9)
      checked += 1
    }
    #expect(checked > 200)
  }

  @Test("the camera image turned a quarter into a screen of its turned size is the same pixels, turned")
  func quarterTurnIsExact() throws {
    let (w, h) = (6, 4)
    let image = LinearImage(
      width: w, height: h, pixels: (0..<(w * h)).map { SIMD4(Float($0), Float($0 * 2), 0, 1) })
    let k = CameraIntrinsics<Double>(fx: 5, fy: 5, cx: 3, cy: 2, width: w, height: h)
    let portrait = try TapViewport.screen(showing: k, size: nil, orientation: .portrait)
    let turned = portrait.viewImage(image)
    #expect(turned.width == h && turned.height == w)
    // The image's top row runs down the screen's right edge.
    for y in 0..<w {
      for x in 0..<h { #expect(turned[x, y] == image[y, h - 1 - x]) }
    }
    let same = try TapViewport.screen(showing: k, size: nil, orientation: .landscapeRight)
    #expect(same.viewImage(image) == image)
  }

  @Test("a scene viewed in portrait draws its point marker where the tap mapping shows it")
  func sceneInPortrait() throws {
    let scene = try Scene.load(path: Fixtures.path("../../Scenes/acupressure-hand.json"))
    let intrinsics = scene.camera.intrinsics
    let viewport = try TapViewport.screen(
      showing: intrinsics, size: SIMD2(intrinsics.height * 3 / 4, intrinsics.width * 3 / 4),
      orientation: .portrait)
    let viewed = try scene.viewed(in: viewport)
    #expect(viewed.camera.intrinsics.width == intrinsics.height * 3 / 4)
    let target = try #require(scene.targets.first)
    let pixel = try #require(scene.camera.project(target.center)).pixel
    let shown = viewport.viewPoint(forImagePixel: pixel)
    let projected = try #require(viewed.camera.project(target.center)).pixel
    #expect(simd_distance(shown, projected) < 1e-6)
    // Rendered: the marker's colour (a strong red) is at that screen point.
    let image = try viewed.render()
    let p = image[Int(shown.x), Int(shown.y)]
    #expect(Int(p.x) > Int(p.y) + 80 && Int(p.x) > Int(p.z) + 80, "\(p) at \(shown)")
  }
}

private func simd_distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
  ((a - b) * (a - b)).sum().squareRoot()
}
