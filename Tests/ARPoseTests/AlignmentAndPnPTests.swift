import ARMath
import ARPose
import ARTestSupport
import Testing

@Suite struct AlignmentAndPnPTests {
  static let k = Pinhole<Double>(fx: 1200, fy: 1200, cx: 960, cy: 720)

  static func project(_ points: [SIMD3<Double>], _ pose: RigidTransform<Double>) -> [SIMD2<Double>] {
    points.map { p in
      let c = pose.transformPoint(p)
      return SIMD2(k.fx * c.x / c.z + k.cx, k.fy * c.y / c.z + k.cy)
    }
  }

  static func randomPose(_ rng: inout SplitMix64) -> RigidTransform<Double> {
    RigidTransform(
      rotation: rng.rotation(),
      translation: [rng.scalar(-0.3...0.3), rng.scalar(-0.3...0.3), rng.scalar(2...4)])
  }

  @Test("Umeyama recovers a rigid motion and a scale") func umeyamaRecoversARigidMotionAndAScale() throws {
    var rng = SplitMix64(seed: 31)
    for withScale in [false, true] {
      let truth = RigidTransform<Double>(rotation: rng.rotation(), translation: rng.vector3(-5...5))
      let scale = withScale ? 1.7 : 1
      let source: [SIMD3<Double>] = (0..<50).map { _ in rng.vector3(-2...2) }
      let target = source.map { scale * truth.rotation.act($0) + truth.translation }
      let fit = try TrajectoryAlignment.umeyama(source: source, target: target, withScale: withScale)
      #expect(abs(fit.scale - scale) < 1e-12)
      #expect(fit.rms < 1e-12)
      #expect((fit.translation - truth.translation).length < 1e-11)
    }
    expectError(PoseError.self, "degenerate") {
      try TrajectoryAlignment.umeyama(
        source: [[0, 0, 0], [1, 1, 1], [2, 2, 2]], target: [[0, 0, 0], [1, 1, 1], [2, 2, 2]])
    }
  }

  @Test("yaw-only alignment turns about up") func yawOnlyAlignmentTurnsAboutUp() throws {
    let yaw = Quaternion<Double>(angle: .degrees(37), axis: [0, 1, 0])
    let source: [SIMD3<Double>] = [[0, 0, 0], [5, 0.1, 0], [5, 0.2, 5], [0, 0.3, 7]]
    let target = source.map { yaw.act($0) + [1, 2, 3] }
    let fit = try TrajectoryAlignment.yawOnly(source: source, target: target)
    #expect(fit.rms < 1e-12)
    #expect(abs(Quaternion(rotationMatrix: fit.rotation).angle(to: yaw).degrees) < 1e-9)
  }

  @Test("perspective pose for planar and non-planar points")
  func perspectivePoseForPlanarAndNonPlanarPoints() throws {
    var rng = SplitMix64(seed: 32)
    for _ in 0..<50 {
      let truth = Self.randomPose(&rng)
      let cube: [SIMD3<Double>] = (0..<8).map { _ in rng.vector3(-0.2...0.2) }
      let best = try #require(
        try PerspectivePose.solve(
          targetPoints: cube, imagePoints: Self.project(cube, truth), intrinsics: Self.k
        ).first)
      #expect(best.cameraFromTarget.rotation.angle(to: truth.rotation).radians < 1e-8)
      #expect((best.translation - truth.translation).length < 1e-8)
      // A tilted planar set (not z = 0 in its own frame).
      let tilt = RigidTransform<Double>(rotation: rng.rotation(), translation: rng.vector3(-0.1...0.1))
      let planar: [SIMD3<Double>] = (0..<6).map { _ in
        tilt.transformPoint([rng.scalar(-0.2...0.2), rng.scalar(-0.2...0.2), 0])
      }
      let visible = Self.project(planar, truth)
      let planarBest = try #require(
        try PerspectivePose.solve(targetPoints: planar, imagePoints: visible, intrinsics: Self.k).first)
      #expect(planarBest.reprojectionError < 1e-8)
      #expect((planarBest.translation - truth.translation).length < 1e-7)
    }
    expectError(PoseError.self, "degenerate") {
      try PerspectivePose.solve(
        targetPoints: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]],
        imagePoints: [[0, 0], [1, 0], [2, 0], [3, 0]], intrinsics: Self.k)
    }
  }

  @Test("a card with markers on both sides has one pose")
  func aCardWithMarkersOnBothSidesHasOnePose() throws {
    // The acupressure card: marker 1 on the front, marker 2 on the back (turned about y), 1 mm card.
    let front = MarkerRig.Marker(
      id: 1, size: 0.05, objectFromMarker: RigidTransform(translation: [0, 0, 0.0005]))
    let back = MarkerRig.Marker(
      id: 2, size: 0.05,
      objectFromMarker: RigidTransform(
        rotation: Quaternion(angle: .degrees(180), axis: [0, 1, 0]), translation: [0, 0, -0.0005]))
    let rig = try MarkerRig(markers: [front, back])
    var rng = SplitMix64(seed: 33)
    let truth = RigidTransform<Double>(
      rotation: Quaternion(angle: .degrees(20), axis: SIMD3<Double>(1, 0.3, 0).normalized()),
      translation: [0.05, -0.02, 0.6])
    let corners = Self.project(front.objectCorners, truth).map {
      $0 + SIMD2(0.2 * rng.gaussian(), 0.2 * rng.gaussian())
    }
    let pose = try #require(try rig.pose(observed: [1: corners], intrinsics: Self.k).first)
    #expect((pose.translation - truth.translation).length < 0.002)
    expectError(PoseError.self, "invalidInput") { try rig.pose(observed: [7: corners], intrinsics: Self.k) }
    // The same marker seen twice (two frames) is recognised; the other side is not the same.
    #expect(
      MarkerRig.isSameMarker(truth * front.objectFromMarker, truth * front.objectFromMarker, size: 0.05))
    #expect(
      !MarkerRig.isSameMarker(truth * front.objectFromMarker, truth * back.objectFromMarker, size: 0.05))
  }

  @Test("a homography decomposes into the plane pose") func aHomographyDecomposesIntoThePlanePose() throws {
    var rng = SplitMix64(seed: 34)
    let truth = Self.randomPose(&rng)
    let square = SquareMarker.corners(size: 0.2)
    let normalised = square.map { p -> SIMD2<Double> in
      let c = truth.transformPoint(SIMD3(p.x, p.y, 0))
      return SIMD2(c.x / c.z, c.y / c.z)
    }
    let h = try Homography.estimate(from: square, to: normalised)
    for (p, q) in zip(square, normalised) { #expect((h.apply(p)! - q).length < 1e-12) }
    let pose = try h.planePose()
    #expect(pose.rotation.angle(to: truth.rotation).radians < 1e-9)
    #expect((pose.translation - truth.translation).length < 1e-9)
  }
}
