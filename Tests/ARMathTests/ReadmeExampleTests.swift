import ARMath
import Testing

/// The example of ARMath's Getting Started article (ARMath.docc) and the README, kept correct.
@Test("README library example")
func readmeExample() throws {
  // A phone camera at eye height (1.6 m), 2 m behind the origin, looking straight ahead (−Z).
  let intrinsics = CameraIntrinsics<Double>(fx: 1500, fy: 1500, cx: 960, cy: 720, width: 1920, height: 1440)
  let pose = RigidTransform<Double>.lookAt(eye: [0, 1.6, 2], target: [0, 1.6, -12], up: [0, 1, 0])!
  let camera = PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose)

  // Where the top-right front corner of the gate lands in the image.
  let corner = try #require(camera.project([3, 5, -11]))
  #expect(corner.pixel.isApproximatelyEqual(to: [1306.153846, 327.692308], absoluteTolerance: 1e-6))
  #expect(corner.depth == 13 && corner.isInside)

  // A tap at the image centre as a world ray, and back.
  let ray = camera.ray(through: [960, 720])
  #expect(ray.direction.isApproximatelyEqual(to: [0, 0, -1], absoluteTolerance: 1e-15))

  // The same camera as OpenCV sees it: y down, looking down +Z.
  let cvPose = pose * CameraConvention.cameraFromCamera(from: .opencv, to: .arkit)
  #expect(cvPose.inverse.transformPoint([3, 5, -11]).z == 13)
}
