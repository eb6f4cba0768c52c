import ARMath
import ARTestSupport
import Testing

@Suite("Posed cameras and number text")
struct CameraAndTextTests {
  @Test("a pixel's ray passes through the world points that project to it")
  func rayThroughPixel() throws {
    var rng = SplitMix64(seed: 301)
    for i in 0..<1_000 {
      let camera = PinholeCamera<Double>(
        intrinsics: CameraIntrinsics(
          fx: rng.scalar(300...2000), fy: rng.scalar(300...2000), cx: 320, cy: 240, width: 640, height: 480),
        worldFromCamera: rng.rigidTransform(extent: 50))
      let pixel = SIMD2<Double>(rng.scalar(0...640), rng.scalar(0...480))
      let ray = camera.ray(through: pixel)
      let t: Double = rng.scalar(0.1...100)
      let projection = try #require(camera.project(ray.point(at: t)), "case \(i)")
      #expect(projection.pixel.isApproximatelyEqual(to: pixel, absoluteTolerance: 1e-8), "case \(i)")
      #expect(projection.isInside == camera.intrinsics.contains(pixel), "case \(i)")
      #expect(ray.origin == camera.worldFromCamera.translation, "case \(i)")
    }
  }

  @Test("OpenCV and ARKit poses of the same camera project identically")
  func conventionsAgree() throws {
    var rng = SplitMix64(seed: 302)
    let intrinsics = CameraIntrinsics<Double>(fx: 800, fy: 800, cx: 320, cy: 240, width: 640, height: 480)
    for i in 0..<500 {
      let arkitPose: RigidTransform<Double> = rng.rigidTransform()
      let cvPose = arkitPose * CameraConvention.cameraFromCamera(from: .opencv, to: .arkit)
      let a = PinholeCamera(intrinsics: intrinsics, worldFromCamera: arkitPose)
      let b = PinholeCamera(intrinsics: intrinsics, worldFromCamera: cvPose, convention: .opencv)
      let p = a.ray(through: [rng.scalar(0...640), rng.scalar(0...480)]).point(at: 3)
      let pa = try #require(a.project(p)), pb = try #require(b.project(p))
      #expect(pa.pixel.isApproximatelyEqual(to: pb.pixel, absoluteTolerance: 1e-9), "case \(i)")
      // In the OpenCV frame the point is in front at +Z.
      #expect(cvPose.inverse.transformPoint(p).z > 0, "case \(i)")
    }
  }

  @Test("number lists and lines parse the formats people type")
  func numberText() throws {
    #expect(try NumberText.parseList("500, 500,320 ,240", count: 4, name: "--k") == [500, 500, 320, 240])
    #expect(try NumberText.parseList("1e-3,.5,+1,-0", count: nil, name: "x") == [0.001, 0.5, 1, 0])
    #expect(try NumberText.parseLine("  1\t2,3\r", columns: 3, source: "f", lineNumber: 1) == [1, 2, 3])
    #expect(try NumberText.parseLine("   ", columns: 3, source: "f", lineNumber: 1) == nil)
    #expect(try NumberText.parseLine("# x y z", columns: 3, source: "f", lineNumber: 1) == nil)
    #expect(throws: NumberTextError.wrongCount(source: "--k", line: nil, expected: 2, got: 3)) {
      try NumberText.parseList("1,2,3", count: 2, name: "--k")
    }
    #expect(throws: NumberTextError.notANumber(source: "--k", line: nil, field: 2, text: "")) {
      try NumberText.parseList("1,,3", count: 3, name: "--k")
    }
    #expect(throws: NumberTextError.notFinite(source: "in.txt", line: 7, field: 1, text: "inf")) {
      try NumberText.parseLine("inf 2", columns: 2, source: "in.txt", lineNumber: 7)
    }
    #expect(
      String(describing: NumberTextError.notANumber(source: "in.txt", line: 7, field: 2, text: "x"))
        == "in.txt:7: field 2 'x' is not a number")
  }
}
