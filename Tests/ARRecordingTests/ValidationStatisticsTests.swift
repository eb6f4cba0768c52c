import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// Simulated walks with known truth through the validator: the fused placement beats a single
/// fix and the compass, and the uncertainty it claims is honest.
@Suite("Validation on simulated walks")
struct ValidationStatisticsTests {
  /// The Závist site of Scenes/zavist.json: the gate and three houses.
  static let site: GeoSite = {
    let frame = try! LocalTangentFrame(
      origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437))
    let places: [(String, Double, Double, Double)] = [
      ("gate", 49.9587, 14.3953, 0), ("house 1", 49.958861818199, 14.395174585120, -10),
      ("house 2", 49.958897777878, 14.395327869994, 5), ("house 3", 49.958870808029, 14.395481154860, -15),
    ]
    return GeoSite(
      frame: frame,
      anchors: places.map { name, lat, lon, heading in
        (
          name,
          GeoAnchor(
            coordinate: GeodeticCoordinate(latitudeDegrees: lat, longitudeDegrees: lon, height: 437),
            heading: .degrees(heading))
        )
      })
  }()

  /// The default phone, at lower record rates so that 200 walks run quickly (rates are not
  /// errors: the noise, drift and outages are the defaults).
  static var model: PhoneErrorModel {
    var m = PhoneErrorModel()
    (m.poseRate, m.frameRate, m.headingRate) = (10, 1, 5)

    return m
  }

  static func validate(seed: UInt64, model: PhoneErrorModel = model, duration: Double = 300) throws
    -> ValidationReport
  {
    let simulator = SessionSimulator(
      site: site, path: try WalkPath.tour(site), model: model, seed: seed, duration: duration)
    var validator = AnchorValidator(site: site)
    try simulator.run { validator.consume($0) }
    return validator.report(source: "simulate", skipped: 0)
  }

  @Test("a perfect phone places every anchor exactly")
  func perfect() throws {
    let report = try Self.validate(seed: 1, model: .perfect, duration: 60)
    for anchor in report.anchors {
      let error = try #require(anchor.positionError), vertical = try #require(anchor.verticalError)
      #expect(error.final < 1e-6, "\(anchor.name): \(error)")
      #expect((anchor.headingError?.final ?? 1) < 1e-6 && vertical.final < 1e-6)
      #expect((anchor.reprojectionError?.max ?? 1) < 1e-4)
    }
    #expect(report.gps.error!.max < 1e-6 && report.trajectory!.ape.max < 1e-6)
  }

  @Test(
    "fixes with only an altitude above mean sea level, as iOS gives them, place anchors at their ellipsoidal height"
  )
  func altitudeAboveMeanSeaLevel() throws {
    let simulator = SessionSimulator(
      site: Self.site, path: try WalkPath.tour(Self.site), model: .perfect, seed: 1, duration: 60)
    var validator = AnchorValidator(site: Self.site)
    // PROJ's EGM96 undulation at the site (cct +proj=vgridshift +grids=egm96_15.gtx): 45.4203 m.
    let undulation = 45.4203
    var converted = 0
    try simulator.run { record in
      guard case .gps(var fix) = record, let height = fix.height else { return validator.consume(record) }
      (fix.height, fix.altitudeMSL) = (nil, height - undulation)
      converted += 1
      validator.consume(.gps(fix))
    }
    let report = validator.report(source: "simulate", skipped: 0)
    #expect(converted > 10)
    for anchor in report.anchors {
      // Read as an ellipsoidal height, the altitude would put the content 45 m too low.
      let vertical = try #require(anchor.verticalError)
      #expect(vertical.final < 0.05, "\(anchor.name): \(vertical)")
    }
  }

  @Test("200 five-minute walks: fused error at most half the fix-and-compass error, σ honest")
  func twoHundredWalks() throws {
    var fused: [Double] = [], raw: [Double] = [], normalized: [Double] = []
    var inside3 = 0, runs = 0, fixesWithin = 0.0
    var sumSquaredError = 0.0, sumSquaredSigma = 0.0
    for seed in 0..<UInt64(200) {
      let report = try Self.validate(seed: 1000 + seed)
      runs += 1
      fixesWithin += report.gps.withinAccuracy!
      var allInside = true
      for anchor in report.anchors {
        let error = try #require(anchor.positionError?.final), sigma = try #require(anchor.finalSigma)
        fused.append(error)
        raw.append(anchor.rawPositionError!.final)
        normalized.append(error / sigma)
        sumSquaredError += error * error
        sumSquaredSigma += sigma * sigma
        if error > 3 * sigma { allInside = false }
      }
      if allInside { inside3 += 1 }
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    let ratio = (sumSquaredError / sumSquaredSigma).squareRoot()
    print(
      "validation: fused median \(median(fused)) m, raw median \(median(raw)) m, RMS/σ \(ratio), within 3σ \(inside3)/\(runs), fixes within accuracy \(fixesWithin / Double(runs))"
    )
    #expect(median(fused) <= 0.5 * median(raw), "fused \(median(fused)) m against \(median(raw)) m")
    #expect(Double(inside3) >= 0.99 * Double(runs), "\(inside3) of \(runs) runs had every anchor within 3σ")
    #expect(abs(ratio - 1) <= 0.15, "RMS error / RMS σ = \(ratio)")
    // The simulated phone's accuracy is honest (a 68% radius), multipath aside.
    let within = fixesWithin / Double(runs)
    #expect(abs(within - 0.68) < 0.04, "\(within) of fixes within their reported accuracy")
  }
}

@Suite("Shard selection")
struct ShardSelectionTests {
  @Test("I/N, and auto from Kubernetes' and Slurm's environments")
  func parsing() throws {
    #expect(try ShardSelection(parsing: "3/8", environment: [:]) == ShardSelection(index: 3, count: 8))
    #expect(
      try ShardSelection(parsing: "auto/8", environment: ["JOB_COMPLETION_INDEX": "5"])
        == ShardSelection(index: 5, count: 8))
    // Slurm arrays may start at 1: the index counts from SLURM_ARRAY_TASK_MIN.
    let slurm = ["SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "10"]
    #expect(try ShardSelection(parsing: "auto", environment: slurm) == ShardSelection(index: 6, count: 10))
    // AWS Batch's index; Google Cloud Batch's index and count (auto/auto); Kubernetes states no count.
    #expect(
      try ShardSelection(parsing: "auto/4", environment: ["AWS_BATCH_JOB_ARRAY_INDEX": "3"])
        == ShardSelection(index: 3, count: 4))
    let google = ["BATCH_TASK_INDEX": "2", "BATCH_TASK_COUNT": "5"]
    #expect(
      try ShardSelection(parsing: "auto/auto", environment: google) == ShardSelection(index: 2, count: 5))
    #expect(try ShardSelection(parsing: "auto", environment: google) == ShardSelection(index: 2, count: 5))
    expectError(RecordingError.self, "badRecord") {
      _ = try ShardSelection(parsing: "auto/auto", environment: ["JOB_COMPLETION_INDEX": "1"])
    }
    for bad in ["8/8", "-1/8", "auto", "a/b", "1/0", "1/2/3", "3/auto"] {
      expectError(RecordingError.self, "badRecord") { _ = try ShardSelection(parsing: bad, environment: [:]) }
    }
    let shard = ShardSelection(index: 1, count: 3)
    #expect((0..<9).filter(shard.contains) == [1, 4, 7])
  }
}
