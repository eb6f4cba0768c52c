import ARGeo
import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// Validation against control points on simulated walks: clicks made from the simulator's truth
/// with 1 px of noise, given to the validator with the truth records withheld, measure the
/// anchors' errors as the truth itself does, within the uncertainty they claim.
@Suite("Validation against control points")
struct ControlValidationTests {
  /// The Závist site with eight surveyed points about its four anchors: posts and corners a few
  /// metres beside each, at ground level and 2.5 m up, so that a camera looking at an anchor sees
  /// some of them.
  static let site: GeoSite = {
    var site = ValidationStatisticsTests.site
    let offsets: [SIMD3<Double>] = [[-4, 1, 0], [3.5, -1, 2.5]]
    for (i, anchor) in site.anchorPositions.enumerated() {
      for (j, offset) in offsets.enumerated() {
        site.controlPoints.append(
          ControlPoint(
            name: "cp-\(i)-\(j)", coordinate: site.frame.geodetic(enu: anchor + offset), sigma: 0.02))
      }
    }
    return site
  }()

  /// A walk's records (truth included) and the clicks a person would make on its frames.
  static func walk(
    seed: UInt64, duration: Double = 90, model: PhoneErrorModel = ValidationStatisticsTests.model
  )
    throws -> (records: [RecordingRecord], clicks: [ControlObservation])
  {
    let simulator = SessionSimulator(
      site: site, path: try WalkPath.tour(site), model: model, seed: seed, duration: duration)
    var clicker = ControlClickSimulator(site: site, seed: seed, noise: 1, interval: 1)
    var records: [RecordingRecord] = []
    try simulator.run(picture: { frame, pose in
      clicker.look(at: frame, worldFromCamera: pose)
      return frame
    }) { records.append($0) }
    return (records, clicker.clicks)
  }

  /// The walk validated against its own truth, and against the control points without it.
  static func reports(_ walk: (records: [RecordingRecord], clicks: [ControlObservation])) -> (
    truth: ValidationReport, control: ValidationReport
  ) {
    var simulated = AnchorValidator(site: site)
    var collector = ControlSightingCollector(site: site, clicks: walk.clicks)
    let withoutTruth = walk.records.filter { if case .truth = $0 { false } else { true } }
    for record in walk.records { simulated.consume(record) }
    for record in withoutTruth { collector.consume(record) }
    collector.finish()
    var controlled = AnchorValidator(site: site, control: ControlTruth(sightings: collector.sightings))
    for record in withoutTruth { controlled.consume(record) }
    return (
      simulated.report(source: "simulate", skipped: 0), controlled.report(source: "simulate", skipped: 0)
    )
  }

  @Test("a perfect phone and exact clicks: the control fit is the session's true alignment")
  func exact() throws {
    var walk = try Self.walk(seed: 3, duration: 40, model: .perfect)
    walk.clicks = walk.clicks.map {
      var c = $0; c.sigmaPixels = 1; return c
    }
    let (truth, control) = Self.reports(walk)
    #expect(control.truthSource == .control && control.hasTruth)
    let summary = try #require(control.control)
    #expect(summary.rejected == 0 && summary.clicks > 20 && summary.unmatched == 0)
    // The clicks carry 1 px of noise: the fit's reprojection error is about that.
    #expect(summary.rmsPx > 0.5 && summary.rmsPx < 2, "\(summary)")
    for (a, b) in zip(truth.anchors, control.anchors) {
      let e = try #require(b.positionError), t = try #require(a.positionError)
      let sigma = try #require(b.truthSigma)
      #expect(abs(e.median - t.median) <= 3 * sigma.median + 0.01, "\(a.name): \(e) against \(t), σ \(sigma)")
    }
  }

  @Test("100 seeded walks: control errors agree with the truth's within their uncertainty")
  func agreement() throws {
    var within2Sigma = 0, total = 0
    var worst = 0.0
    for seed: UInt64 in 1...100 {
      let (truth, control) = Self.reports(try Self.walk(seed: seed, duration: 60))
      #expect(control.truthSource == .control)
      for (a, b) in zip(truth.anchors, control.anchors) {
        guard let t = a.positionError, let c = b.positionError, let sigma = b.truthSigma else {
          Issue.record("seed \(seed), \(a.name): no error measured")
          continue
        }
        let difference = abs(c.median - t.median)
        total += 1
        if difference <= 2 * sigma.median { within2Sigma += 1 }
        worst = Swift.max(worst, difference - Swift.max(0.3, 0.3 * t.median))
        #expect(difference <= Swift.max(0.3, 0.3 * t.median), "seed \(seed), \(a.name): \(c) against \(t)")
      }
    }
    // Two σ covers 95% of honest differences.
    #expect(Double(within2Sigma) / Double(total) >= 0.85, "\(within2Sigma) of \(total)")
    print("control agreement: \(within2Sigma) of \(total) within 2σ; worst excess \(worst)")
  }

  @Test("a wrong click is left out and changes nothing")
  func wrongClick() throws {
    var walk = try Self.walk(seed: 7, duration: 60)
    let (_, clean) = Self.reports(walk)
    var bad = walk.clicks[walk.clicks.count / 2]
    bad.pixel += SIMD2(180, -95)
    walk.clicks.append(bad)
    let (_, wrong) = Self.reports(walk)
    #expect(wrong.control?.rejected ?? 0 >= 1)
    for (a, b) in zip(clean.anchors, wrong.anchors) {
      let x = try #require(a.positionError?.median), y = try #require(b.positionError?.median)
      #expect(abs(x - y) < 0.05, "\(a.name): \(x) against \(y)")
    }
  }

  @Test("taps naming control points are sightings too (10 px σ), and measure the errors as clicks do")
  func taps() throws {
    let walk = try Self.walk(seed: 9, duration: 60)
    // Each click as a tap on its frame, recorded right after the frame.
    var records: [RecordingRecord] = []
    var pending = walk.clicks[...]
    for record in walk.records {
      records.append(record)
      guard case .frame(let frame) = record else { continue }
      while let click = pending.first, click.time <= frame.time {
        records.append(.tap(TapSample(time: click.time, point: click.pixel, expected: click.name)))
        pending = pending.dropFirst()
      }
    }
    let (truth, _) = Self.reports(walk)
    var collector = ControlSightingCollector(site: Self.site, clicks: [])
    let withoutTruth = records.filter { if case .truth = $0 { false } else { true } }
    for record in withoutTruth { collector.consume(record) }
    collector.finish()
    #expect(
      collector.sightings.count == walk.clicks.count
        && collector.sightings.allSatisfy { $0.observation.source == .tap })
    var validator = AnchorValidator(site: Self.site, control: ControlTruth(sightings: collector.sightings))
    for record in withoutTruth { validator.consume(record) }
    let report = validator.report(source: "simulate", skipped: 0)
    #expect(report.control?.taps == walk.clicks.count && report.control?.clicks == 0)
    for (a, b) in zip(truth.anchors, report.anchors) {
      let t = try #require(a.positionError?.median), c = try #require(b.positionError?.median)
      #expect(abs(t - c) <= Swift.max(0.3, 0.3 * t), "\(a.name): \(t) against \(c)")
    }
  }

  @Test("raw frames with a lens: clicks where the lens shows the points constrain as the pinhole's clicks do")
  func clicksOnRawFrames() throws {
    let walk = try Self.walk(seed: 5, duration: 20)
    let lens = LensDistortion.radialTangential(
      k1: -0.3, k2: 0.09, p1: 0.001, p2: -0.0007, k3: -0.01, k4: 0, k5: 0, k6: 0)
    var intrinsics: [Double: Pinhole<Double>] = [:]
    let raw = walk.records.map { record -> RecordingRecord in
      guard case .frame(var frame) = record else { return record }
      frame.lens = lens
      intrinsics[frame.time] = frame.intrinsics
      return .frame(frame)
    }
    // Each click where the lens puts it in the raw image.
    let rawClicks = try walk.clicks.map { click in
      let k = try #require(intrinsics[click.time])
      var moved = click
      moved.pixel = k.distortedPixel(click.pixel, lens: lens)
      return moved
    }
    #expect(zip(rawClicks, walk.clicks).contains { ($0.pixel - $1.pixel).length > 5 })
    var collector = ControlSightingCollector(site: Self.site, clicks: rawClicks)
    for record in raw { collector.consume(record) }
    collector.finish()
    let pinhole = Dictionary(walk.clicks.map { ("\($0.time) \($0.name)", $0.pixel) }) { a, _ in a }
    #expect(collector.sightings.count == walk.clicks.count && !walk.clicks.isEmpty)
    for sighting in collector.sightings {
      let expected = try #require(pinhole["\(sighting.observation.time) \(sighting.observation.name)"])
      #expect(
        (sighting.observation.pixel - expected).length < 1e-8, "\(sighting.observation.pixel) \(expected)")
    }
  }

  @Test("a clicks file as labelling tools write it: comments, quoted names, σ, a byte-order mark, CRLF")
  func clicksFile() throws {
    let path = Fixtures.path("control/clicks.csv")
    let clicks = try ControlClicks.read(
      path: path, known: ["cp-gate-post", "cp-gate-beam", "cp-house-1-post"])
    #expect(clicks.map(\.name) == ["cp-gate-post", "cp-gate-beam", "cp-house-1-post"])
    #expect(clicks.map(\.sigmaPixels) == [1.5, 2, 1] && clicks[2].pixel == SIMD2(330, 700.25))
    #expect(clicks.map(\.line) == [3, 4, 5] && clicks.allSatisfy { $0.source == .click })
    let folder = try TemporaryFolder()
    let windows = try folder.write("\u{FEFF}t,name,u,v\r\n12.5,\"a \"\"b\"\", c\",1,2\r\n", to: "w.csv")
    let read = try ControlClicks.read(path: windows)
    #expect(read.map(\.name) == [#"a "b", c"#] && read[0].sigmaPixels == ControlObservation.defaultClickSigma)
  }
}
