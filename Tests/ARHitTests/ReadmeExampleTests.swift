import ARHit
import ARMath
import ARMesh
import ARTestSupport
import Testing

/// The example of ARHit's Getting Started article (ARHit.docc) and the README, kept correct.
@Test("README hit-testing example")
func readmeHitExample() throws {
  let root = Fixtures.root + "/../.."
  let hand = try BoundingVolumeHierarchy(
    mesh: OBJAsset.load(path: root + "/Scenes/models/hand-right.obj").mesh)
  let hit = try #require(hand.closestHit(try HitRay(origin: [0, 0.5, -0.05], direction: [0, -1, 0])))
  #expect(abs(hit.t - 0.482622184) < 1e-6)
  let li4 = TapTarget(
    name: "LI4", sphere: Sphere(center: [-0.026474693, 0.014598695, -0.045355768], radius: 0.005))
  let camera = PinholeCamera<Double>(
    intrinsics: CameraIntrinsics(fx: 1500, fy: 1500, cx: 960, cy: 720, width: 1920, height: 1440),
    worldFromCamera: .lookAt(
      eye: [-0.026, 1.015, -0.045], target: [-0.026, 0.015, -0.045], up: [0, 0, -1])!)
  let tester = try TapHitTester(
    camera: TapCamera(camera: camera, viewSize: [390, 844], orientation: .portrait), targets: [li4],
    mesh: hand)
  let centre = try #require(tester.camera.tapPoint(forWorldPoint: li4.sphere.center)).point
  #expect((centre - [195, 422]).length < 5)  // the camera looks straight at it
  let result = try tester.hitTest(tap: [200, 420], policy: .standard)
  #expect(result.best == "LI4")
}
