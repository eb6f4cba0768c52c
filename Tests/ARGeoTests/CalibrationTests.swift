import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Calibration on simulated data with known truth.
@Suite struct CalibrationTests {
  /// A 100 m walk (a gentle curve, as people walk) with `count` GPS fixes of `noise` m 1-σ per
  /// axis, in a session whose frame is turned by `yaw` and shifted; `outliers` fixes get a 30–80 m
  /// multipath jump.
  static func walk(
    yaw: Angle<Double>, count: Int = 100, noise: Double = 3, outliers: Int = 0, rng: inout SplitMix64
  ) -> [PositionFix] {
    let truth = SessionAlignment(yaw: yaw, originENU: SIMD3(12, -7, 1.5))
    let start = Double.random(in: 0..<(2 * .pi), using: &rng)
    return (0..<count).map { i in
      let s = 100 * Double(i) / Double(count - 1)
      // ENU position along the walk, then where the session saw it.
      let heading = start + 0.004 * s
      let enu = SIMD3(s * Double.sin(heading), s * Double.cos(heading), 0.2 * Double.sin(s / 10))
      let session = truth.sessionPoint(enu: enu)
      var measured = enu + SIMD3(noise * rng.gaussian(), noise * rng.gaussian(), 1.5 * noise * rng.gaussian())
      if i % max(1, count / max(1, outliers)) == 3 && outliers > 0 {
        let jump = Double.random(in: 30...80, using: &rng),
          angle = Double.random(in: 0..<(2 * .pi), using: &rng)
        measured += SIMD3(jump * Double.cos(angle), jump * Double.sin(angle), 0)
      }
      return PositionFix(sessionPosition: session, enu: measured, horizontalAccuracy: noise)
    }
  }

  @Test("recovers the yaw with an honest sigma") func recoversTheYawWithAnHonestSigma() throws {
    var rng = SplitMix64(seed: 2026)
    var within3Sigma = 0, errors: [Double] = []
    let runs = 1000
    for _ in 0..<runs {
      let yaw = Angle<Double>(radians: Double.random(in: 0..<(2 * .pi), using: &rng))
      let estimate = try SessionAligner.estimate(Self.walk(yaw: yaw, rng: &rng))
      let error = abs((estimate.alignment.yaw - yaw).wrappedToPlusMinusPi.radians)
      errors.append(error)
      if error <= 3 * estimate.yawSigma.radians { within3Sigma += 1 }
    }
    errors.sort()
    // The Cramér–Rao bound for 3 m per axis over a 100 m straight line is 3 / √(Σd²) ≈ 0.6°;
    // the estimator reaches it, so the median error is about 0.67 × that.
    #expect(
      Angle(radians: errors[runs / 2]).degrees < 0.5,
      "median yaw error \(Angle(radians: errors[runs / 2]).degrees)°")
    #expect(Double(within3Sigma) / Double(runs) >= 0.99, "\(within3Sigma) of \(runs) within 3σ")
  }

  @Test("the yaw error reaches the Cramér–Rao bound") func theYawErrorReachesTheCramerRaoBound() throws {
    // An efficient estimator's RMS error equals the σ it reports (the inverse Fisher
    // information); a biased or wasteful one would be worse. 1 m fixes, 500 runs.
    var rng = SplitMix64(seed: 7)
    var squaredError = 0.0, squaredSigma = 0.0
    let runs = 500
    for _ in 0..<runs {
      let yaw = Angle<Double>(degrees: Double.random(in: 0..<360, using: &rng))
      let estimate = try SessionAligner.estimate(Self.walk(yaw: yaw, noise: 1, rng: &rng))
      squaredError += pow((estimate.alignment.yaw - yaw).wrappedToPlusMinusPi.radians, 2)
      squaredSigma += pow(estimate.yawSigma.radians, 2)
    }
    let ratio = (squaredError / squaredSigma).squareRoot()
    #expect(ratio > 0.9 && ratio < 1.1, "RMS error / reported σ = \(ratio)")
  }

  @Test("outlier fixes are rejected") func outlierFixesAreRejected() throws {
    var rng = SplitMix64(seed: 11)
    for _ in 0..<100 {
      let yaw = Angle<Double>(degrees: Double.random(in: 0..<360, using: &rng))
      let fixes = Self.walk(yaw: yaw, outliers: 15, rng: &rng)
      let estimate = try SessionAligner.estimate(fixes)
      let error = abs((estimate.alignment.yaw - yaw).wrappedToPlusMinusPi.radians)
      #expect(error <= 4 * estimate.yawSigma.radians)
      #expect(estimate.outlierIndices.count >= 13 && estimate.outlierIndices.count <= 17)
    }
  }

  @Test("the online aligner matches the batch one") func theOnlineAlignerMatchesTheBatchOne() throws {
    var rng = SplitMix64(seed: 5)
    let yaw = Angle<Double>(degrees: 137)
    let fixes = Self.walk(yaw: yaw, rng: &rng)
    var online = OnlineSessionAligner()
    for fix in fixes { try online.add(fix) }
    let batch = try SessionAligner.estimate(fixes)
    let current = try #require(online.current)
    #expect(online.rejectedCount == 0)
    #expect(abs((current.alignment.yaw - batch.alignment.yaw).radians) < 1e-12)
    #expect((current.alignment.originENU - batch.alignment.originENU).length < 1e-9)
    #expect(abs(current.yawSigma.radians - batch.yawSigma.radians) < 1e-12)
  }

  @Test("the online aligner gates outliers once established")
  func theOnlineAlignerGatesOutliersOnceEstablished() throws {
    var rng = SplitMix64(seed: 6)
    let yaw = Angle<Double>(degrees: 200)
    var online = OnlineSessionAligner()
    var rejected = 0
    for fix in Self.walk(yaw: yaw, outliers: 10, rng: &rng) where try !online.add(fix) { rejected += 1 }
    #expect(rejected >= 8)
    let current = try #require(online.current)
    #expect(abs((current.alignment.yaw - yaw).wrappedToPlusMinusPi.radians) <= 4 * current.yawSigma.radians)
  }

  @Test("a session that stood still is refused") func aSessionThatStoodStillIsRefused() {
    var rng = SplitMix64(seed: 1)
    let fixes = (0..<50).map { _ in
      PositionFix(
        sessionPosition: SIMD3(0.1 * rng.gaussian(), 0, 0.1 * rng.gaussian()),
        enu: SIMD3(3 * rng.gaussian(), 3 * rng.gaussian(), 0), horizontalAccuracy: 3)
    }
    expectError(GeoError.self, "degenerate") { try SessionAligner.estimate(fixes) }
  }

  @Test("compass bias is recovered") func compassBiasIsRecovered() throws {
    var rng = SplitMix64(seed: 12)
    let alignment = SessionAlignment(yaw: .degrees(73))
    let declination = Angle<Double>.degrees(4.6)
    let bias = Angle<Double>.degrees(-11)
    let samples = (0..<200).map { _ in
      let trueHeading = Angle<Double>(degrees: Double.random(in: 0..<360, using: &rng))
      // The session direction whose true heading is trueHeading.
      let sessionHeading = trueHeading - alignment.yaw
      let direction = SIMD3(Double.sin(sessionHeading.radians), 0.3, -Double.cos(sessionHeading.radians))
      let reading = trueHeading - declination + bias + .degrees(2 * rng.gaussian())
      return CompassSample(heading: reading, sessionDirection: direction)
    }
    let result = try CompassBiasEstimator.estimate(samples, alignment: alignment, declination: declination)
    #expect(abs((result.bias - bias).wrappedToPlusMinusPi.degrees) <= 3 * result.sigma.degrees)
    #expect(abs(result.scatter.degrees - 2) < 0.3)
  }

  @Test("magnetometer hard and soft iron are recovered")
  func magnetometerHardAndSoftIronAreRecovered() throws {
    var rng = SplitMix64(seed: 21)
    let strength = 49.0  // µT, about Závist's total intensity
    let hardIron = SIMD3(12.0, -30.0, 7.5)
    let distortion = Matrix3<Double>(
      rows: SIMD3(1.08, 0.05, -0.02), SIMD3(0.05, 0.94, 0.03), SIMD3(-0.02, 0.03, 1.01))
    let samples = (0..<400).map { _ in
      let direction: SIMD3<Double> = rng.unitVector3()
      return distortion * (strength * direction) + hardIron
        + SIMD3(0.3 * rng.gaussian(), 0.3 * rng.gaussian(), 0.3 * rng.gaussian())
    }
    let calibration = try MagnetometerCalibration(samples: samples, fieldStrength: strength)
    #expect((calibration.hardIron - hardIron).length <= 0.01 * strength)
    // Corrected samples lie on the sphere to within the noise.
    #expect(calibration.residualRMS < 0.5)
  }

  @Test("degenerate magnetometer samplings are refused") func degenerateMagnetometerSamplingsAreRefused() {
    var rng = SplitMix64(seed: 22)
    // Turned only flat on a table: all samples in one plane.
    let flat = (0..<200).map { i in
      let a = Double(i) * 0.1
      return SIMD3(45 * Double.cos(a), 45 * Double.sin(a), -20.0)
        + SIMD3(0.1 * rng.gaussian(), 0.1 * rng.gaussian(), 0.1 * rng.gaussian())
    }
    expectError(GeoError.self, "degenerate") { try MagnetometerCalibration(samples: flat) }
    // Bunched to one side: directions within 40° of one axis.
    let bunched = (0..<200).compactMap { _ -> SIMD3<Double>? in
      let d: SIMD3<Double> = rng.unitVector3()
      return d.z > Double.cos(40 * .pi / 180)
        ? 45 * d + SIMD3(0.1 * rng.gaussian(), 0.1 * rng.gaussian(), 0) : nil
    }
    expectError(GeoError.self, "degenerate") { try MagnetometerCalibration(samples: bunched) }
  }

  @Test("a landmark sighting gives yaw and compass bias")
  func aLandmarkSightingGivesYawAndCompassBias() throws {
    let observer = GeodeticCoordinate(latitudeDegrees: 49.9600, longitudeDegrees: 14.4000, height: 300)
    // A point 2 km away at a true bearing of 30°.
    let landmark = try Geodesic().direct(from: observer, initialBearingDegrees: 30, distance: 2000).coordinate
    let alignment = SessionAlignment(yaw: .degrees(-50))
    let sessionHeading = Angle<Double>.degrees(30) - alignment.yaw
    let direction = SIMD3(Double.sin(sessionHeading.radians), 0.05, -Double.cos(sessionHeading.radians))
    let sighting = LandmarkSighting(
      observer: observer, landmark: landmark, sessionDirection: direction,
      compassHeading: .degrees(30 - 4.6 + 8))
    let result = try LandmarkCalibration(sighting, declination: .degrees(4.6))
    #expect(abs(result.trueBearing.degrees - 30) < 1e-3)
    #expect(abs((result.sessionYaw - alignment.yaw).wrappedToPlusMinusPi.degrees) < 1e-3)
    #expect(abs(try #require(result.compassBias).degrees - 8) < 1e-3)
    // 2 km along the ellipsoid at 300 m height is 2000 × (R + 300) / R in the tangent plane.
    #expect(abs(result.distance - 2000 * (1 + 300 / 6_371_000)) < 0.01)
  }
}
