/// A validation report as one self-contained HTML file: no scripts, no fonts, no network, so it
/// opens anywhere and can be attached to a bug report. A top-down map (truth, GPS fixes with
/// their accuracy circles, the fused track with its σ band, the anchors), each anchor's claimed
/// 1σ and jitter over time (and its error, with truth), histograms of the sensors' normalised
/// innovations against their χ² curves (and of the errors, with truth), and the tables. It says
/// plainly which figures need truth and whether the recording had any.
public struct ValidationHTMLReport {
  /// The report drawn.
  public let report: ValidationReport

  /// The page of `report` (its tracks and timeline included: give the full report, not the summary).
  public init(_ report: ValidationReport) { self.report = report }

  /// The page.
  public var html: String {
    var page = """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <title>ARScene validation: \(escape(report.source))</title>
      <style>
      body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;color:#1d2330}
      h1{font-size:22px}h2{font-size:17px;margin-top:28px}
      table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #dde;text-align:right}
      th:first-child,td:first-child{text-align:left}svg{background:#fafbfd;border:1px solid #dde}
      .legend span{margin-right:16px}.note{color:#667}
      </style></head><body>
      <h1>Anchor validation</h1>
      <p class="note">Source: \(escape(report.source)) · \(report.records) records\(report.skipped > 0 ? " · \(report.skipped) skipped" : "")</p>
      <p>\(truthStatement)</p>

      """
    page += summaryTables()
    page += "<h2>Map</h2>\n" + map()
    page += "<h2>Over time</h2>\n" + timeline() + jitterChart()
    page += "<h2>Are the sensors' accuracies honest?</h2>\n" + innovationHistograms()
    if report.hasTruth { page += "<h2>Error histogram</h2>\n" + histogram() }
    if let drift = report.anchorDrift {
      page += "<h2>Anchor drift against the truth</h2>\n" + driftSection(drift)
    }
    page += "</body></html>\n"
    return page
  }

  /// What the truth was and which figures need it.
  var truthStatement: String {
    switch report.truthSource {
    case .none:
      return
        "<b>No truth in this recording.</b> Errors (position, heading, image, within σ, the trajectory's APE) "
        + "need truth and are not shown. What is shown needs none: where each anchor was placed, the σ the "
        + "alignment claimed, how much the anchors jittered and drifted, and whether the GPS and compass agree "
        + "with the odometry as well as their reported accuracies say."
    case .control:
      let c = report.control
      return
        "Truth: <b>control points</b> seen in the recording (\(c?.clicks ?? 0) clicks, \(c?.taps ?? 0) taps, "
        + "\(c?.markerCorners ?? 0) marker corners; \(c?.used ?? 0) used, \(c?.rejected ?? 0) left out as more than "
        + "4σ off). The truth at each fix is fitted to the sightings within \(c.map { "\(Int($0.windowS))" } ?? "?") s "
        + "of it, and is itself uncertain by each anchor's truth σ. The trajectory's APE needs the recording's own truth."
    case .simulation:
      return "Truth: <b>\(escape(report.truthSource.rawValue))</b>. Errors are measured against it."
    }
  }

  func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  func f(_ x: Double?, _ digits: Int = 2) -> String {
    guard let x, x.isFinite else { return "–" }
    let scale = (0..<digits).reduce(1.0) { r, _ in r * 10 }
    let rounded = (x * scale).rounded() / scale
    return "\(rounded)"
  }

  /// The opening tag of a figure `w` × `h` pixels.
  func svg(_ w: Double, _ h: Double) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
  }

  private func summaryTables() -> String {
    var s =
      "<h2>Anchors</h2>\n<table><tr><th>anchor</th><th>placed at (lat, lon, h)</th><th>claimed 1σ at end (m)</th>"
    s += "<th>jitter p50 / p95 / max (px)</th><th>drift (m)</th>"
    if report.hasTruth {
      s += "<th>error at end (m)</th><th>median (m)</th><th>RMS / σ</th><th>within 1σ</th><th>within 3σ</th>"
      s += "<th>heading (°)</th><th>image (px)</th><th>fix + compass median (m)</th>"
    }
    s += "</tr>\n"
    for a in report.anchors {
      let p = a.placement.map { "\(f($0.latitude, 7)), \(f($0.longitude, 7)), \(f($0.height, 2))" } ?? "–"
      let j = a.stability
      s += "<tr><td>\(escape(a.name))</td><td>\(p)</td><td>\(f(a.finalSigma))</td>"
      s += "<td>\(f(j.jitterP50, 1)) / \(f(j.jitterP95, 1)) / \(f(j.jitterMax, 1))</td><td>\(f(j.drift))</td>"
      if report.hasTruth {
        s +=
          "<td>\(f(a.positionError?.final))</td><td>\(f(a.positionError?.median))</td><td>\(f(a.normalizedRMS))</td>"
        s +=
          "<td>\(f(a.within1Sigma.map { $0 * 100 }, 1))%</td><td>\(f(a.within3Sigma.map { $0 * 100 }, 1))%</td>"
        s += "<td>\(f(a.headingError?.median))</td><td>\(f(a.reprojectionError?.median, 1))</td>"
        s += "<td>\(f(a.rawPositionError?.median))</td>"
      }
      s += "</tr>\n"
    }
    return s + "</table>\n" + sensorTable()
  }

  private func sensorTable() -> String {
    var s = "<h2>GPS, compass and alignment</h2>\n<table>"
    let g = report.gps, c = report.consistency
    s += "<tr><td>fixes (used, rejected)</td><td>\(g.fixes) (\(g.used), \(g.rejected))</td></tr>"
    s += "<tr><td>fixes against the odometry: mean NIS (2 when honest)</td><td>\(f(c.gpsNISMean))</td></tr>"
    s +=
      "<tr><td>… within their 68% region (68% when honest)</td><td>\(f(c.gpsWithin68.map { $0 * 100 }, 1))%</td></tr>"
    s += "<tr><td>compass against the fixes' yaw: RMS, bias (°)</td>"
    s += "<td>\(f(c.headingInnovationRMSDeg)), \(f(c.headingBiasDeg))</td></tr>"
    s +=
      "<tr><td>odometry scale against GPS (walk spread, m)</td><td>\(f(c.odometryScale, 3)) (\(f(c.walkExtent, 1)))</td></tr>"
    if let a = report.alignment {
      s +=
        "<tr><td>session yaw (°), from \(escape(a.source.rawValue))</td><td>\(f(a.yawDeg)) ± \(f(a.yawSigmaDeg))</td></tr>"
    }
    if report.hasTruth {
      s += "<tr><td>fixes within their reported accuracy of the truth (68% expected)</td>"
      s += "<td>\(f(g.withinAccuracy.map { $0 * 100 }, 1))%</td></tr>"
      s += "<tr><td>fix error median / RMS (m)</td><td>\(f(g.error?.median)) / \(f(g.error?.rms))</td></tr>"
    }
    if let t = report.trajectory {
      s += "<tr><td>fused trajectory APE RMSE (m)</td><td>\(f(t.ape.rmse))</td></tr>"
      if let rpe = t.rpe { s += "<tr><td>RPE over 10 m, RMSE (m)</td><td>\(f(rpe.rmse))</td></tr>" }
    }
    return s + "</table>\n"
  }
}
