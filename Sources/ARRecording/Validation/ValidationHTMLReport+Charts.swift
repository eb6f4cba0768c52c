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
    let axes = TimeAxes(height: 260, end: end, top: top)
    let (x, y, colours) = (axes.x, axes.y, TimeAxes.colours)
    var s = axes.frame(topLabel: "\(f(top, 1)) m", verticalAxis: true)
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
    let ceiling = Swift.max(top, 0.5)
    var s = ""
    if let size = report.session?.frameSize, size.from == .principalPoint {
      s +=
        "<p class=\"note\">The frames state no image size: jitter is measured on \(size.width)×\(size.height) px, twice the principal point (give <code>--image-size</code> to state it).</p>\n"
    }
    let axes = TimeAxes(height: 200, end: end, top: ceiling)
    let (x, y, colours) = (axes.x, axes.y, TimeAxes.colours)
    s += axes.frame(topLabel: "\(f(ceiling, 1)) px")
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

/// The frame of a chart of values over time, 720 pixels wide: its scales from seconds and values
/// to SVG coordinates, its axes and labels, and the colours anchors are drawn in.
struct TimeAxes {
  let width = 720.0, height: Double, left = 46.0, bottom = 26.0
  /// The last time, seconds; the largest value (larger ones are drawn at it).
  let end: Double, top: Double

  /// One colour an anchor, in turn.
  static let colours = ["#2f7de1", "#d6336c", "#2b9348", "#7048e8", "#e8590c", "#1098ad"]

  init(height: Double, end: Double, top: Double) {
    (self.height, self.end, self.top) = (height, end, top)
  }

  /// The x coordinate of `t` seconds.
  func x(_ t: Double) -> String { Self.number(left + t / end * (width - left - 10)) }
  /// The y coordinate of `v`.
  func y(_ v: Double) -> String {
    Self.number(height - bottom - Swift.min(v, top) / top * (height - bottom - 10))
  }

  /// The opening tag, the time axis (and the value axis), the top value's label and the end's.
  func frame(topLabel: String, verticalAxis: Bool = false) -> String {
    var s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\">\n"
    s +=
      "<line x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - 10)\" y2=\"\(height - bottom)\" stroke=\"#889\"/>"
    if verticalAxis {
      s += "<line x1=\"\(left)\" y1=\"10\" x2=\"\(left)\" y2=\"\(height - bottom)\" stroke=\"#889\"/>\n"
    }
    s +=
      "<text x=\"4\" y=\"16\" font-size=\"11\">\(topLabel)</text><text x=\"\(width - 60)\" y=\"\(height - 6)\" font-size=\"11\">\(Self.number(end, digits: 0)) s</text>\n"
    return s
  }

  /// `x` rounded to `digits` decimals, as the report prints coordinates.
  static func number(_ x: Double, digits: Int = 1) -> String {
    let scale = (0..<digits).reduce(1.0) { r, _ in r * 10 }
    return "\((x * scale).rounded() / scale)"
  }
}
