extension ValidationHTMLReport {
  /// Each anchor's claimed 1σ over time, and with truth its fused error and the fix-and-compass
  /// error (grey).
  func timeline() -> String {
    let points = report.timeline
    guard let end = points.map(\.t).max(), end > 0 else {
      return
        "<p class=\"note\">No placement over time: the recording's fixes never aligned the session.</p>\n"
    }
    let top = Swift.max(points.map { Swift.max($0.error ?? 0, $0.sigma, $0.rawError ?? 0) }.max() ?? 1, 0.1)
    let (w, h, left, bottom) = (720.0, 260.0, 46.0, 26.0)
    func x(_ t: Double) -> String { f(left + t / end * (w - left - 10), 1) }
    func y(_ v: Double) -> String { f(h - bottom - Swift.min(v, top) / top * (h - bottom - 10), 1) }
    let colours = ["#2f7de1", "#d6336c", "#2b9348", "#7048e8", "#e8590c", "#1098ad"]
    var s = svg(w, h)
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
      s += line(mine.compactMap { p in p.error.map { (p.t, $0) } }, "", colour)
    }
    s += "</svg>\n<p class=\"legend\"><span>┅ claimed 1σ (m)</span>"
    s +=
      report.hasTruth
      ? "<span>━ fused error</span><span style=\"color:#889\">━ latest fix + compass</span></p>\n"
      : "<span class=\"note\">errors need truth: none in this recording</span></p>\n"
    return s
  }

  /// Each anchor's largest frame-to-frame jitter in each second, pixels.
  func jitterChart() -> String {
    let points = report.tracks.jitter
    guard let end = points.map(\.time).max(), end > 0, let top = points.map(\.pixels).max() else {
      return
        "<p class=\"note\">No jitter measured: no frames with intrinsics while the session was aligned.</p>\n"
    }
    let (w, h, left, bottom) = (720.0, 200.0, 46.0, 26.0)
    let ceiling = Swift.max(top, 0.5)
    var s = ""
    if let size = report.session?.frameSize, size.from == .principalPoint {
      s +=
        "<p class=\"note\">The frames state no image size: jitter is measured on \(size.width)×\(size.height) px, twice the principal point (give <code>--image-size</code> to state it).</p>\n"
    }
    func x(_ t: Double) -> String { f(left + t / end * (w - left - 10), 1) }
    func y(_ v: Double) -> String { f(h - bottom - v / ceiling * (h - bottom - 10), 1) }
    let colours = ["#2f7de1", "#d6336c", "#2b9348", "#7048e8", "#e8590c", "#1098ad"]
    s += svg(w, h)
    s += "<line x1=\"\(left)\" y1=\"\(h - bottom)\" x2=\"\(w - 10)\" y2=\"\(h - bottom)\" stroke=\"#889\"/>"
    s +=
      "<text x=\"4\" y=\"16\" font-size=\"11\">\(f(ceiling, 1)) px</text><text x=\"\(w - 60)\" y=\"\(h - 6)\" font-size=\"11\">\(f(end, 0)) s</text>\n"
    for p in points.prefix(20_000) {
      s +=
        "<circle cx=\"\(x(p.time))\" cy=\"\(y(p.pixels))\" r=\"1.5\" fill=\"\(colours[p.anchor % colours.count])\"/>\n"
    }
    return s
      + "</svg>\n<p class=\"legend\"><span>● jitter: how far each anchor moved in the image because the alignment changed (px, the largest each second)</span></p>\n"
  }

  /// Histograms of the fixes' and the compass's normalised innovations squared, each against
  /// the χ² density it follows when the reported accuracies are honest.
  func innovationHistograms() -> String {
    let t = report.tracks
    return chiSquaredHistogram(
      t.gpsNIS, degrees: 2, title: "GPS fixes against the odometry, χ² with 2 degrees of freedom")
      + chiSquaredHistogram(
        t.headingNIS, degrees: 1, title: "compass against the fixes' yaw, χ² with 1 degree of freedom")
  }

  private func chiSquaredHistogram(_ values: [Double], degrees: Int, title: String) -> String {
    guard !values.isEmpty else { return "<p class=\"note\">\(escape(title)): none.</p>\n" }
    let (bins, top) = (24, 8.0)
    var counts = [Int](repeating: 0, count: bins)
    for v in values where v.isFinite {
      counts[Swift.min(bins - 1, Swift.max(0, Int(v / top * Double(bins))))] += 1
    }
    let width = top / Double(bins), n = Double(values.count)
    // The χ² density: k = 1: e^(−x/2) / √(2πx); k = 2: e^(−x/2) / 2; expected count = n × width × density.
    func density(_ x: Double) -> Double {
      degrees == 2 ? 0.5 * Double.exp(-x / 2) : Double.exp(-x / 2) / (2 * .pi * x).squareRoot()
    }
    let expected = (0..<bins).map { n * width * density((Double($0) + 0.5) * width) }
    let highest = Swift.max(Double(counts.max() ?? 1), expected.max() ?? 1)
    let (w, h, bottom) = (720.0, 180.0, 24.0)
    func y(_ c: Double) -> Double { h - bottom - c / highest * (h - bottom - 10) }
    let barWidth = (w - 20) / Double(bins)
    var s = "<p>\(escape(title)): \(values.count) values</p>\n" + svg(w, h)
    for (i, c) in counts.enumerated() {
      s +=
        "<rect x=\"\(f(10 + Double(i) * barWidth, 1))\" y=\"\(f(y(Double(c)), 1))\" width=\"\(f(barWidth - 2, 1))\" height=\"\(f(h - bottom - y(Double(c)), 1))\" fill=\"#2f7de1\"/>\n"
    }
    let curve = expected.enumerated().map {
      "\(f(10 + (Double($0.offset) + 0.5) * barWidth, 1)),\(f(y($0.element), 1))"
    }
    s +=
      "<polyline fill=\"none\" stroke=\"#d6336c\" stroke-width=\"1.6\" points=\"\(curve.joined(separator: " "))\"/>\n"
    s +=
      "<text x=\"10\" y=\"\(h - 6)\" font-size=\"11\">0</text><text x=\"\(w - 40)\" y=\"\(h - 6)\" font-size=\"11\">≥ \(f(top, 0))</text>\n</svg>\n"
    return s
      + "<p class=\"legend\"><span style=\"color:#2f7de1\">▮ measured</span><span style=\"color:#d6336c\">━ χ² if honest</span></p>\n"
  }

  /// Fused errors of all anchors, in 20 bins.
  func histogram() -> String {
    let errors = report.timeline.compactMap(\.error)
    guard let top = errors.max(), top > 0 else { return "<p class=\"note\">No errors measured.</p>\n" }
    let bins = 20
    var counts = [Int](repeating: 0, count: bins)
    for e in errors { counts[Swift.min(bins - 1, Int(e / top * Double(bins)))] += 1 }
    let (w, h, bottom) = (720.0, 200.0, 24.0)
    let highest = Double(counts.max() ?? 1)
    var s = svg(w, h)
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
