import ARGeo
import ARMath

/// Where a session truly sat over a recording, from its control sightings: what `arscene
/// validate` measures anchors against when the recording has no truth of its own
/// (`truth_source` `control`).
///
/// Visual-inertial odometry drifts (1–2% of the distance walked), so the session frame does not
/// sit in one place for a whole walk: the truth at a time is fitted to the sightings within
/// ``window`` seconds around it (widened, doubling, up to the whole recording until they fix
/// the alignment). ``overall`` fits them all, for the report.
public struct ControlTruth: Sendable {
  /// Every sighting, in time order.
  public let sightings: [ControlSighting]
  /// All sightings fitted together; nil when they cannot fix the alignment.
  public let overall: ControlAlignmentFit?
  /// The span of sightings a time's truth is fitted to, seconds (centred on the time).
  public var window: Double
  /// Observations that could not be paired with a frame or a camera pose (reported, not used).
  public var unmatched: Int

  /// The truth of `sightings` (any order), fitted over `window` seconds.
  public init(sightings: [ControlSighting], unmatched: Int = 0, window: Double = 30) {
    self.sightings = sightings.sorted { $0.observation.time < $1.observation.time }
    self.window = window
    self.unmatched = unmatched
    overall = ControlAlignmentFit.fit(self.sightings)
  }

  /// The alignment fitted to the sightings around `time`; nil when no span of them fixes it.
  public func fit(at time: Double) -> ControlAlignmentFit? {
    guard let overall, let first = sightings.first?.observation.time,
      let last = sightings.last?.observation.time
    else { return nil }
    var half = window / 2
    while true {
      let lower = lowerBound(time - half), upper = lowerBound(time + half + 1e-9)
      let span = Array(sightings[lower..<upper])
      if let local = ControlAlignmentFit.fit(span, start: overall.alignment) { return local }
      if time - half <= first && time + half >= last { return nil }
      half *= 2
    }
  }

  /// The index of the first sighting at or after `time`.
  private func lowerBound(_ time: Double) -> Int {
    var (low, high) = (0, sightings.count)
    while low < high {
      let mid = (low + high) / 2
      if sightings[mid].observation.time < time { low = mid + 1 } else { high = mid }
    }
    return low
  }
}

extension ControlTruth {
  /// The report's summary: the sightings by source, the overall fit's alignment, and which
  /// sightings the fits around them kept (a sighting more than 4σ from the fit of the window
  /// centred nearest it, at a stride of half a window, is counted as rejected: a wrong click);
  /// nil when there is no fit.
  func summary(evaluations: Int) -> ValidationReport.ControlSummary? {
    guard let fit = overall, let first = sightings.first?.observation.time,
      let last = sightings.last?.observation.time
    else { return nil }
    func count(_ source: ControlObservation.Source) -> Int {
      sightings.count { $0.observation.source == source }
    }
    var used = 0, squares = 0.0
    var points = Set<String>()
    let stride = window / 2
    var centre = first
    while centre <= last + stride / 2 {
      let local = self.fit(at: centre)
      let nearest = sightings.filter { abs($0.observation.time - centre) <= stride / 2 + 1e-9 }
      if let local {
        let problem = ControlFitProblem(sightings: nearest)
        for (s, r) in zip(nearest, problem.residuals(ControlFitProblem.parameters(local.alignment))) {
          guard let r, r.residual.length <= 4 else { continue }
          used += 1
          squares += (r.residual * r.sigma).lengthSquared
          points.insert("\(s.observation.name)#\(s.observation.corner ?? -1)")
        }
      }
      centre += stride
    }
    let o = fit.alignment.originENU
    let c = fit.covariance
    return ValidationReport.ControlSummary(
      clicks: count(.click), taps: count(.tap), markerCorners: count(.marker), unmatched: unmatched,
      used: used, rejected: sightings.count - used, points: points.count,
      yawDeg: fit.alignment.yaw.wrappedToPlusMinusPi.degrees, yawSigmaDeg: fit.yawSigma * 180 / .pi,
      originENU: [o.x, o.y, o.z], originSigmaM: [c[5].squareRoot(), c[10].squareRoot(), c[15].squareRoot()],
      rmsPx: used > 0 ? (squares / Double(used)).squareRoot() : 0, windowS: window, evaluations: evaluations)
  }
}

extension ControlTruth {
  /// The control truth of the recording `reader` reads: `clicks` (read from `clicksPath`), the
  /// recording's taps naming `site`'s control points and what `inFrame` finds in each frame
  /// (a surveyed marker's corners), paired with its frames and poses in one pass; nil when
  /// `site` has no control points.
  ///
  /// - Throws: ``RecordingError`` for the recording, and for a click no frame lies within 1 ms
  ///   of (naming the clicks file's line); what `inFrame` throws.
  public static func collect(
    _ reader: RecordingReader, site: GeoSite, clicks: [ControlObservation] = [],
    clicksPath: String = "clicks",
    window: Double = 30, inFrame: ((CameraFrameSample) throws -> [ControlObservation])? = nil
  ) throws -> ControlTruth? {
    guard !site.controlPoints.isEmpty else { return nil }
    var collector = ControlSightingCollector(site: site, clicks: clicks)
    var failure: Error?
    try reader.forEach { record in
      guard failure == nil else { return }
      collector.consume(record)
      guard let inFrame, case .frame(let frame) = record, let k = frame.intrinsics else { return }
      do {
        for observation in try inFrame(frame) { collector.observe(observation, k, lens: frame.lens) }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    collector.finish()
    if let click = collector.unmatchedClicks.first {
      throw RecordingError.badRecord(
        path: clicksPath, line: click.line, field: "t",
        reason: "no frame of the recording within 1 ms of \(click.time)")
    }
    return ControlTruth(sightings: collector.sightings, unmatched: collector.unposed.count, window: window)
  }
}
