/// A validation report as one self-contained HTML file: no scripts, no fonts, no network, so it
/// opens anywhere and can be attached to a bug report. A top-down map (truth, GPS fixes with
/// their accuracy circles, the fused track, the anchors), each anchor's error over time against
/// its claimed 1σ, a histogram of errors, and the tables.
public struct ValidationHTMLReport {
  public let report: ValidationReport

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
      <p class="note">Source: \(escape(report.source)) · \(report.records) records\(report.skipped > 0 ? " · \(report.skipped) skipped" : "")\
      \(report.hasTruth ? "" : " · no truth in the recording: errors cannot be measured")</p>

      """
    page += summaryTables()
    page += "<h2>Map</h2>\n" + map()
    page += "<h2>Error over time</h2>\n" + timeline()
    page += "<h2>Error histogram</h2>\n" + histogram()
    page += "</body></html>\n"
    return page
  }

  private func escape(_ s: String) -> String {
    s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }

  private func f(_ x: Double?, _ digits: Int = 2) -> String {
    guard let x, x.isFinite else { return "–" }
    let scale = (0..<digits).reduce(1.0) { r, _ in r * 10 }
    let rounded = (x * scale).rounded() / scale
    return "\(rounded)"
  }

  private func summaryTables() -> String {
    var s =
      "<h2>Anchors</h2>\n<table><tr><th>anchor</th><th>error at end (m)</th><th>median (m)</th><th>RMS (m)</th>"
    s +=
      "<th>claimed 1σ at end (m)</th><th>RMS / σ</th><th>within 1σ</th><th>within 3σ</th><th>heading (°)</th>"
    s += "<th>image (px)</th><th>fix + compass median (m)</th></tr>\n"
    for a in report.anchors {
      s +=
        "<tr><td>\(escape(a.name))</td><td>\(f(a.positionError.final))</td><td>\(f(a.positionError.median))</td>"
      s += "<td>\(f(a.positionError.rms))</td><td>\(f(a.finalSigma))</td><td>\(f(a.normalizedRMS))</td>"
      s += "<td>\(f(a.within1Sigma * 100, 1))%</td><td>\(f(a.within3Sigma * 100, 1))%</td>"
      s += "<td>\(f(a.headingError?.median))</td><td>\(f(a.reprojectionError?.median, 1))</td>"
      s += "<td>\(f(a.rawPositionError?.median))</td></tr>\n"
    }
    s += "</table>\n<h2>GPS and alignment</h2>\n<table>"
    let g = report.gps
    s += "<tr><td>fixes (used, rejected)</td><td>\(g.fixes) (\(g.used), \(g.rejected))</td></tr>"
    s +=
      "<tr><td>fixes within their reported accuracy (68% expected)</td><td>\(f(g.withinAccuracy.map { $0 * 100 }, 1))%</td></tr>"
    s += "<tr><td>fix error median / RMS (m)</td><td>\(f(g.error?.median)) / \(f(g.error?.rms))</td></tr>"
    if let a = report.alignment {
      s += "<tr><td>session yaw (°)</td><td>\(f(a.yawDeg)) ± \(f(a.yawSigmaDeg))</td></tr>"
    }
    if let t = report.trajectory {
      s += "<tr><td>fused trajectory APE RMSE (m)</td><td>\(f(t.ape.rmse))</td></tr>"
      if let rpe = t.rpe { s += "<tr><td>RPE over 10 m, RMSE (m)</td><td>\(f(rpe.rmse))</td></tr>" }
    }
    return s + "</table>\n"
  }

  /// Top-down: east right, north up, equal scale.
  private func map() -> String {
    let t = report.tracks
    let all = t.truth + t.fused + t.fixes.map { [$0[0], $0[1]] } + t.anchors
    guard let minE = all.map({ $0[0] }).min(), let maxE = all.map({ $0[0] }).max(),
      let minN = all.map({ $0[1] }).min(), let maxN = all.map({ $0[1] }).max()
    else { return "<p class=\"note\">Nothing to draw.</p>\n" }
    let (w, h, pad) = (720.0, 560.0, 30.0)
    let span = Swift.max(maxE - minE, maxN - minN, 1) * 1.1
    let scale = Swift.min(w, h) - 2 * pad
    let (ce, cn) = ((minE + maxE) / 2, (minN + maxN) / 2)
    func x(_ e: Double) -> String { f(w / 2 + (e - ce) / span * scale, 1) }
    func y(_ n: Double) -> String { f(h / 2 - (n - cn) / span * scale, 1) }
    func polyline(_ points: [[Double]], _ colour: String, _ width: Double) -> String {
      guard points.count > 1 else { return "" }
      let step = Swift.max(1, points.count / 4000)
      let coordinates = stride(from: 0, to: points.count, by: step).map {
        "\(x(points[$0][0])),\(y(points[$0][1]))"
      }
      return
        "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(width)\" points=\"\(coordinates.joined(separator: " "))\"/>\n"
    }
    var s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
    for fix in t.fixes {
      let r = fix[2] / span * scale
      s +=
        "<circle cx=\"\(x(fix[0]))\" cy=\"\(y(fix[1]))\" r=\"\(f(r, 1))\" fill=\"#e8a33d\" fill-opacity=\"0.04\" stroke=\"#e8a33d\" stroke-opacity=\"0.25\"/>\n"
    }
    for fix in t.fixes {
      s += "<circle cx=\"\(x(fix[0]))\" cy=\"\(y(fix[1]))\" r=\"1.6\" fill=\"#c77b12\"/>\n"
    }
    s += polyline(t.truth, "#1d2330", 2)
    s += polyline(t.fused, "#2f7de1", 1.5)
    for (i, a) in t.anchors.enumerated() {
      s +=
        "<rect x=\"\(f(Double(x(a[0]))! - 5, 1))\" y=\"\(f(Double(y(a[1]))! - 5, 1))\" width=\"10\" height=\"10\" fill=\"#d6336c\"/>\n"
      let name = i < report.anchors.count ? report.anchors[i].name : "anchor \(i + 1)"
      s +=
        "<text x=\"\(f(Double(x(a[0]))! + 8, 1))\" y=\"\(f(Double(y(a[1]))! - 8, 1))\" font-size=\"12\">\(escape(name))</text>\n"
    }
    // A scale bar of a round length (1, 2 or 5 × 10ᵏ m), at most a fifth of the map.
    var decade = 1.0
    while decade * 10 <= span / 5 { decade *= 10 }
    while decade > span / 5 { decade /= 10 }
    let bar = [5, 2, 1].map { $0 * decade }.first { $0 <= span / 5 } ?? decade
    s +=
      "<line x1=\"\(pad)\" y1=\"\(h - pad)\" x2=\"\(f(pad + bar / span * scale, 1))\" y2=\"\(h - pad)\" stroke=\"#1d2330\" stroke-width=\"2\"/>"
    s += "<text x=\"\(pad)\" y=\"\(h - pad - 6)\" font-size=\"12\">\(f(bar, 1)) m</text>\n"
    s += "<text x=\"\(w - pad - 10)\" y=\"\(pad + 4)\" font-size=\"14\">N ↑</text>\n</svg>\n"
    s +=
      "<p class=\"legend\"><span style=\"color:#1d2330\">━ truth</span><span style=\"color:#2f7de1\">━ fused track</span>"
    s +=
      "<span style=\"color:#c77b12\">● GPS fixes and accuracy circles</span><span style=\"color:#d6336c\">■ anchors</span></p>\n"
    return s
  }

  /// Each anchor's fused error and claimed 1σ over time; the fix-and-compass error in grey.
  private func timeline() -> String {
    let points = report.timeline
    guard let end = points.map(\.t).max(), end > 0 else {
      return "<p class=\"note\">No errors measured.</p>\n"
    }
    let top = Swift.max(points.map { Swift.max($0.error, $0.sigma, $0.rawError ?? 0) }.max() ?? 1, 0.1)
    let (w, h, left, bottom) = (720.0, 260.0, 46.0, 26.0)
    func x(_ t: Double) -> String { f(left + t / end * (w - left - 10), 1) }
    func y(_ v: Double) -> String { f(h - bottom - Swift.min(v, top) / top * (h - bottom - 10), 1) }
    let colours = ["#2f7de1", "#d6336c", "#2b9348", "#7048e8", "#e8590c", "#1098ad"]
    var s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
    s += "<line x1=\"\(left)\" y1=\"\(h - bottom)\" x2=\"\(w - 10)\" y2=\"\(h - bottom)\" stroke=\"#889\"/>"
    s += "<line x1=\"\(left)\" y1=\"10\" x2=\"\(left)\" y2=\"\(h - bottom)\" stroke=\"#889\"/>\n"
    s +=
      "<text x=\"4\" y=\"16\" font-size=\"11\">\(f(top, 1)) m</text><text x=\"\(w - 60)\" y=\"\(h - 6)\" font-size=\"11\">\(f(end, 0)) s</text>\n"
    for anchor in Set(points.map(\.anchor)).sorted() {
      let mine = points.filter { $0.anchor == anchor }
      let colour = colours[anchor % colours.count]
      func line(_ values: [(Double, Double)], _ dash: String, _ stroke: String) -> String {
        let step = Swift.max(1, values.count / 2000)
        let c = stride(from: 0, to: values.count, by: step).map { "\(x(values[$0].0)),\(y(values[$0].1))" }
        return
          "<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"1.3\" \(dash) points=\"\(c.joined(separator: " "))\"/>\n"
      }
      s += line(mine.compactMap { p in p.rawError.map { (p.t, $0) } }, "stroke-opacity=\"0.35\"", "#889")
      s += line(mine.map { ($0.t, $0.sigma) }, "stroke-dasharray=\"4 3\"", colour)
      s += line(mine.map { ($0.t, $0.error) }, "", colour)
    }
    s +=
      "</svg>\n<p class=\"legend\"><span>━ fused error</span><span>┅ claimed 1σ</span><span style=\"color:#889\">━ latest fix + compass</span></p>\n"
    return s
  }

  /// Fused errors of all anchors, in 20 bins.
  private func histogram() -> String {
    let errors = report.timeline.map(\.error)
    guard let top = errors.max(), top > 0 else { return "<p class=\"note\">No errors measured.</p>\n" }
    let bins = 20
    var counts = [Int](repeating: 0, count: bins)
    for e in errors { counts[Swift.min(bins - 1, Int(e / top * Double(bins)))] += 1 }
    let (w, h, bottom) = (720.0, 200.0, 24.0)
    let highest = Double(counts.max() ?? 1)
    var s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
    let barWidth = (w - 20) / Double(bins)
    for (i, c) in counts.enumerated() {
      let bh = Double(c) / highest * (h - bottom - 10)
      s +=
        "<rect x=\"\(f(10 + Double(i) * barWidth, 1))\" y=\"\(f(h - bottom - bh, 1))\" width=\"\(f(barWidth - 2, 1))\" height=\"\(f(bh, 1))\" fill=\"#2f7de1\"/>\n"
    }
    s +=
      "<text x=\"10\" y=\"\(h - 6)\" font-size=\"11\">0 m</text><text x=\"\(w - 60)\" y=\"\(h - 6)\" font-size=\"11\">\(f(top, 1)) m</text>\n</svg>\n"
    return s
  }
}
