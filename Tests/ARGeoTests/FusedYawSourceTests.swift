import ARGeo
import ARMath
import ARTestSupport
import Testing

/// Where the fused alignment's yaw comes from, and the σ it is given: each sensor's own claim
/// where it made one, and no yaw from a GPS track too short to see one.
@Suite struct FusedYawSourceTests {
  static let assumptions = FusedSessionAligner.Assumptions(
    gpsWhiteSigma: 3, gpsMarkovSigma: 0, gpsMarkovTau: 0, headingBiasSigma: 2)

  /// Fixes a second apart along a straight walk of `length` metres in a session turned by 30°,
  /// each claiming `sigma` m per axis, with seeded noise of that σ.
  static func fixes(length: Double, sigma: Double, count: Int = 20, seed: UInt64) -> [PositionFix] {
    var rng = SplitMix64(seed: seed)
    let truth = SessionAlignment(yaw: .degrees(30), originENU: SIMD3(5, -3, 0))
    return (0..<count).map { i in
      let enu = SIMD3(length * Double(i) / Double(count - 1), 0, 0)
      let noisy = enu + SIMD3(sigma * rng.gaussian(), sigma * rng.gaussian(), 0)
      return PositionFix(sessionPosition: truth.sessionPoint(enu: enu), enu: noisy, horizontalAccuracy: sigma)
    }
  }

  static func fused(_ fixes: [PositionFix], compass: (yaw: Double, accuracy: Double?)?) throws
    -> SessionAlignmentEstimate
  {
    var aligner = FusedSessionAligner(assumptions: assumptions)
    for (i, fix) in fixes.enumerated() {
      _ = aligner.add(fix, at: Double(i))
      if let compass { aligner.addCompassYaw(compass.yaw, at: Double(i), claimedAccuracy: compass.accuracy) }
    }
    return try #require(aligner.estimate)
  }

  @Test("a 1.7 m walk under 40 m fixes sees no yaw: the compass's alone, at the accuracy it claimed")
  func shortTrackTakesTheCompass() throws {
    let compassYaw = Angle<Double>.degrees(33).radians
    let estimate = try Self.fused(
      Self.fixes(length: 1.7, sigma: 40 / 1.5096, seed: 1), compass: (compassYaw, 12.5))
    #expect(!estimate.gpsSeesYaw && estimate.yawSource == .compass)
    #expect(abs((estimate.alignment.yaw.radians - compassYaw)) < 1e-12)
    #expect(abs(estimate.yawSigma.degrees - 12.5) < 1e-9)
  }

  @Test("without a claimed accuracy the compass keeps the assumed bias σ")
  func unclaimedCompassKeepsTheAssumption() throws {
    let estimate = try Self.fused(
      Self.fixes(length: 1.7, sigma: 30, seed: 2), compass: (Angle<Double>.degrees(31).radians, nil))
    #expect(estimate.yawSource == .compass && abs(estimate.yawSigma.degrees - 2) < 1e-9)
  }

  @Test("a 100 m walk under 3 m fixes fuses its yaw with the compass's, weighted by their σ")
  func longTrackFuses() throws {
    let fixes = Self.fixes(length: 100, sigma: 3, seed: 3)
    let gpsOnly = try Self.fused(fixes, compass: nil)
    #expect(gpsOnly.gpsSeesYaw && gpsOnly.yawSource == .gpsTrack)
    let compassYaw = Angle<Double>.degrees(35).radians, compassSigma = Angle<Double>.degrees(10).radians
    let fused = try Self.fused(fixes, compass: (compassYaw, 10))
    #expect(fused.yawSource == .fused)
    // Inverse-variance weighting of the two yaws and their σ.
    let gps = gpsOnly.yawSigma.radians
    let expectedSigma = 1 / (1 / (gps * gps) + 1 / (compassSigma * compassSigma)).squareRoot()
    #expect(abs(fused.yawSigma.radians - expectedSigma) < 1e-12)
    let weight = gps * gps / (gps * gps + compassSigma * compassSigma)
    let expectedYaw = gpsOnly.alignment.yaw.radians + weight * (compassYaw - gpsOnly.alignment.yaw.radians)
    #expect(abs(fused.alignment.yaw.radians - expectedYaw) < 1e-9)
  }

  @Test("a short track and no compass: the track's yaw, with σ no less than a yaw not known at all")
  func shortTrackWithoutCompass() throws {
    let estimate = try Self.fused(Self.fixes(length: 2, sigma: 20, seed: 4), compass: nil)
    #expect(estimate.yawSource == .gpsTrack && !estimate.gpsSeesYaw)
    #expect(estimate.yawSigma.degrees >= 180 / 3.0.squareRoot() - 1e-9)
  }
}
