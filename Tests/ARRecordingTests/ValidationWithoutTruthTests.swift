import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// What validation measures without truth: on simulated walks (whose truth is then left out of
/// the judgement) the sensors' consistency figures are what an honest phone gives, and on a real
/// iPhone recording every anchor is placed, with its σ and stability.
@Suite("Validation without truth")
struct ValidationWithoutTruthTests {
  /// A simulated walk's report with its truth records withheld.
  static func report(seed: UInt64, model: PhoneErrorModel = ValidationStatisticsTests.model) throws
    -> ValidationReport
  {
    let site = ValidationStatisticsTests.site
    let simulator = SessionSimulator(
      site: site, path: try WalkPath.tour(site), model: model, seed: seed, duration: 300)
    var validator = AnchorValidator(site: site)
    try simulator.run { record in
      if case .truth = record { return }
      validator.consume(record)
    }
    return validator.report(source: "simulate", skipped: 0)
  }

  @Test(
    "simulated walks without their truth: every anchor placed with σ and drift; the fixes' NIS near 2, the scale near 1"
  )
  func simulatedWalks() throws {
    var nis: [Double] = [], within: [Double] = [], scales: [Double] = []
    for seed: UInt64 in 1...12 {
      let report = try Self.report(seed: seed)
      #expect(report.truthSource == .none && !report.hasTruth)
      #expect(report.anchors.count == 4)
      for anchor in report.anchors {
        #expect(anchor.placement != nil && anchor.finalSigma != nil && anchor.positionError == nil)
        #expect(anchor.stability.drift != nil && anchor.stability.frames > 0)
      }
      #expect(!report.timeline.isEmpty && report.timeline.allSatisfy { $0.error == nil })
      #expect(!report.tracks.fused.isEmpty && report.tracks.fused.allSatisfy { $0.radius > 0 })
      let yaw = try #require(report.alignment?.yawDeg)
      #expect(yaw > -180 && yaw <= 180)
      let c = report.consistency
      nis.append(try #require(c.gpsNISMean))
      within.append(try #require(c.gpsWithin68))
      scales.append(try #require(c.odometryScale))
    }
    let meanNIS = nis.reduce(0, +) / Double(nis.count)
    let meanWithin = within.reduce(0, +) / Double(within.count)
    #expect(meanNIS > 1 && meanNIS < 4, "\(nis)")
    #expect(meanWithin > 0.5 && meanWithin < 0.9, "\(within)")
    // The simulated odometry drifts and the fixes are noisy: each walk's scale within 10%, their
    // mean within 3% of the true 1.
    #expect(scales.allSatisfy { abs($0 - 1) < 0.1 }, "\(scales)")
    #expect(abs(scales.reduce(0, +) / Double(scales.count) - 1) < 0.03, "\(scales)")
  }

  @Test(
    "a real iPhone session (ios_logger, Seoul) and a poses-only one (ARKit Data Logger): every anchor placed, with σ and stability",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func realRecordings() throws {
    // An anchor 25 m east of the first fix, where the phone looked.
    let frame = try LocalTangentFrame(
      origin: GeodeticCoordinate(latitudeDegrees: 37.544789, longitudeDegrees: 126.963929, height: 78.4))
    let anchor = GeoAnchor(
      coordinate: GeodeticCoordinate(latitudeDegrees: 37.544789, longitudeDegrees: 126.964212, height: 78.4),
      heading: .degrees(0))
    let site = GeoSite(
      frame: frame, anchors: [("marker", anchor)],
      sessionAlignment: SessionAlignment(yaw: .degrees(0), originENU: .zero))
    let seoul = try RecordingReader(
      path: RealData.path("ar_recordings/ios_logger_iphone_2021-07-29T12-52-25"))
    let report = try AnchorValidator.validate(seoul, site: site)
    // A 1.7 m walk under fixes good to 38–74 m sees no yaw: the compass gives it, trusted to the
    // 12.5° its Head.txt claims rather than the 2° assumed when a phone claims nothing.
    #expect(report.truthSource == .none && report.alignment?.source == .compass)
    #expect(try #require(report.alignment?.yawSigmaDeg) >= 12.45)
    let placed = try #require(report.anchors.first)
    let placement = try #require(placed.placement)
    // Placed where the anchor is, to the alignment's last change (the compass moved it since).
    #expect(abs(placement.latitude - 37.544789) < 1e-4 && abs(placement.longitude - 126.964212) < 1e-4)
    #expect(try #require(placed.finalSigma) > 1)
    #expect(
      placed.stability.frames > 100 && placed.stability.jitterMax != nil && placed.stability.drift != nil)
    let c = report.consistency
    #expect(c.gpsInnovations > 10 && c.gpsNISMean != nil && c.headingInnovations > 100)
    // 44 s standing nearly still with 65 m accuracies: no scale can be told, and the report says so.
    #expect(c.odometryScale == nil && (c.walkExtent ?? 99) < 10)
    #expect(!report.timeline.isEmpty && !report.tracks.fused.isEmpty && !report.tracks.jitter.isEmpty)

    // No fixes at all: the scene's alignment places the anchor, with no σ to claim.
    let logger = try RecordingReader(
      path: RealData.path("ar_recordings/arkit_data_logger_iphoneXS_2019-07-22"))
    let poses = try AnchorValidator.validate(logger, site: site)
    #expect(poses.alignment?.source == .scene && poses.truthSource == .none)
    let still = try #require(poses.anchors.first)
    #expect(still.placement != nil && still.finalSigma == nil && still.sessionPosition != nil)
  }

  @Test("the session's duration, the distance walked and the track's extent, from its poses")
  func sessionSummary() throws {
    let report = try Self.report(seed: 11)
    let session = try #require(report.session)
    // Poses at 30 Hz over the 300 s walk, at about 1.3 m/s along the tour.
    #expect(abs(session.durationS - 300) < 0.05)
    #expect(session.distanceM > 300 && session.distanceM < 450, "\(session.distanceM)")
    #expect(session.extentM.count == 3 && session.extentM[0] > 10 && session.extentM[2] > 10)
  }
}
