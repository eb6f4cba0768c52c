import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// The platform's geo poses audited against the truth: `simulate` writes them with a chosen
/// optimism, and the audit must find the share within each claim that optimism gives.
@Suite("Geo pose claims")
struct GeoPoseClaimsTests {
  /// The shares within 68% claims `k` times too small, for the simulator's Gaussian errors:
  /// horizontal 1 − 0.32^(1/k²) (a circular Gaussian), vertical and yaw P(|z| < 0.99446/k).
  static func expected(optimism k: Double) -> (horizontal: Double, oneDimensional: Double) {
    (1 - pow(0.32, 1 / (k * k)), erf(PhoneErrorModel.halfInterval68PerSigma / k / 2.0.squareRoot()))
  }

  @Test(
    "over 100 seeds the audit finds the share inside each claim the optimism sets", arguments: [1.0, 2.5])
  func auditFindsTheOptimism(optimism: Double) throws {
    var model = ValidationStatisticsTests.model
    (model.frameRate, model.geoPoseOptimism) = (5, optimism)
    let site = ValidationStatisticsTests.site
    var within: (h: Double, v: Double, yaw: Double) = (0, 0, 0)
    var pairs = 0
    for seed in UInt64(1)...100 {
      let simulator = SessionSimulator(
        site: site, path: try WalkPath.tour(site), model: model, seed: seed, duration: 20)
      var validator = AnchorValidator(site: site)
      try simulator.run { validator.consume($0) }
      let claims = try #require(validator.report(source: "simulate", skipped: 0).geoPoseClaims)
      let (h, v, y) = (
        try #require(claims.horizontal), try #require(claims.vertical), try #require(claims.yaw)
      )
      within.h += h.withinClaimed * Double(h.pairs)
      within.v += v.withinClaimed * Double(v.pairs)
      within.yaw += y.withinClaimed * Double(y.pairs)
      pairs += h.pairs
    }
    let expected = Self.expected(optimism: optimism)
    let n = Double(pairs)
    // 10,100 pairs: a share's standard error is under 0.005.
    #expect(pairs == 100 * 101)
    #expect(
      abs(within.h / n - expected.horizontal) < 0.02, "horizontal \(within.h / n) vs \(expected.horizontal)")
    #expect(abs(within.v / n - expected.oneDimensional) < 0.02, "vertical \(within.v / n)")
    #expect(abs(within.yaw / n - expected.oneDimensional) < 0.02, "yaw \(within.yaw / n)")
  }

  @Test("geo poses round-trip through ARScene's JSON Lines; bad claims and states are refused by field")
  func recordFormat() throws {
    let folder = try TemporaryFolder()
    let pose = GeoPoseSample(
      time: 5, latitude: 49.9587, longitude: 14.3953, height: 437.5,
      localFromCamera: Quaternion(angle: .degrees(30), axis: [0, 1, 0]), horizontalAccuracy: 1.2,
      verticalAccuracy: 0.8, yawAccuracyDegrees: 2.5, trackingState: "localized", accuracyLevel: "high")
    let path = folder.path + "/geo.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "test", timeBase: .unix))
    try writer.write(.geoPose(pose))
    try writer.finish()
    var read: [RecordingRecord] = []
    try RecordingReader(path: path).forEach { read.append($0) }
    #expect(read == [.geoPose(pose)])
    let header =
      #"{"type":"header","format":"arscene-recording","version":1,"source":"t","time_base":"unix"}"#
    for (line, field) in [
      (
        #"{"type":"geo_pose","t":1,"latitude":1,"longitude":2,"height":3,"horizontal_accuracy":-1}"#,
        "horizontal_accuracy"
      ),
      (
        #"{"type":"geo_pose","t":1,"latitude":1,"longitude":2,"height":3,"tracking_state":"lost"}"#,
        "tracking_state"
      ),
      (#"{"type":"geo_pose","t":1,"latitude":91,"longitude":2,"height":3}"#, "latitude"),
    ] {
      let bad = try folder.write(header + "\n" + line + "\n", to: "bad-\(field).jsonl")
      do {
        try RecordingReader(path: bad).forEach { _ in }
        Issue.record("\(field): read")
      } catch { #expect("\(error)".contains(":2: \(field)"), "\(error)") }
    }
  }
}
