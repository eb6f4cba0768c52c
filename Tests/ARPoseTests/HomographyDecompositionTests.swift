import ARMath
import ARPose
import ARTestSupport
import Testing

@Suite struct HomographyDecompositionTests {
  @Test("one of the motions is the true one") func oneOfTheMotionsIsTheTrueOne() throws {
    var rng = SplitMix64(seed: 61)
    for _ in 0..<300 {
      let rotation = Quaternion<Double>(
        angle: .degrees(rng.scalar(1...40)), axis: (rng.unitVector3() as SIMD3<Double>)
      ).matrix
      let t: SIMD3<Double> = rng.vector3(-0.5...0.5)
      var n: SIMD3<Double> = rng.unitVector3()
      if n.z < 0 { n = -n }
      let d = Double.random(in: 1...5, using: &rng)
      let scale = Double.random(in: 0.2...5, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
      // H = R + t·nᵀ/d, scaled arbitrarily (a homography is defined up to scale).
      let h = (rotation + Matrix3(n * (t.x / d), n * (t.y / d), n * (t.z / d)).transposed) * scale
      let motions = try Homography(h).motions()
      #expect(motions.count == 4)
      let match = motions.contains { m in
        let rotationError = Quaternion(rotationMatrix: m.rotation).angle(
          to: Quaternion(rotationMatrix: rotation)
        ).radians
        return rotationError < 1e-8 && (m.translationOverDistance - t / d).length < 1e-8
          && (m.normal - n).length < 1e-8
      }
      #expect(match, "no motion matches R, t/d, n")
    }
  }
}
