extension ValidationHTMLReport {
  /// Top-down: east right, north up, equal scale.
  func map() -> String {
    let t = report.tracks
    let all = t.truth + t.fused.map(\.ground) + t.fixes.map(\.ground) + t.anchors
    guard let minE = all.map(\.east).min(), let maxE = all.map(\.east).max(),
      let minN = all.map(\.north).min(), let maxN = all.map(\.north).max()
    else { return "<p class=\"note\">Nothing to draw.</p>\n" }
    let (w, h, pad) = (720.0, 560.0, 30.0)
    let span = Swift.max(maxE - minE, maxN - minN, 1) * 1.1
    let scale = Swift.min(w, h) - 2 * pad
    let (ce, cn) = ((minE + maxE) / 2, (minN + maxN) / 2)
    func x(_ e: Double) -> String { f(w / 2 + (e - ce) / span * scale, 1) }
    func y(_ n: Double) -> String { f(h / 2 - (n - cn) / span * scale, 1) }
    func polyline(_ points: [ValidationReport.GroundPoint], _ colour: String, _ width: Double) -> String {
      guard points.count > 1 else { return "" }
      let step = Swift.max(1, points.count / 4000)
      let coordinates = stride(from: 0, to: points.count, by: step).map {
        "\(x(points[$0].east)),\(y(points[$0].north))"
      }
      return
        "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"\(width)\" points=\"\(coordinates.joined(separator: " "))\"/>\n"
    }
    var s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(w))\" height=\"\(Int(h))\" viewBox=\"0 0 \(Int(w)) \(Int(h))\">\n"
    for fix in t.fixes {
      let r = fix.radius / span * scale
      s +=
        "<circle cx=\"\(x(fix.ground.east))\" cy=\"\(y(fix.ground.north))\" r=\"\(f(r, 1))\" fill=\"#e8a33d\" fill-opacity=\"0.04\" stroke=\"#e8a33d\" stroke-opacity=\"0.25\"/>\n"
    }
    for fix in t.fixes {
      s += "<circle cx=\"\(x(fix.ground.east))\" cy=\"\(y(fix.ground.north))\" r=\"1.6\" fill=\"#c77b12\"/>\n"
    }
    // The fused track's σ band: a disc of the alignment's claimed 1σ (per axis) at each point.
    for p in t.fused {
      s +=
        "<circle cx=\"\(x(p.ground.east))\" cy=\"\(y(p.ground.north))\" r=\"\(f(p.radius / span * scale, 1))\" fill=\"#2f7de1\" fill-opacity=\"0.012\"/>\n"
    }
    s += polyline(t.truth, "#1d2330", 2)
    s += polyline(t.fused.map(\.ground), "#2f7de1", 1.5)
    for (i, a) in t.anchors.enumerated() {
      s +=
        "<rect x=\"\(f(Double(x(a.east))! - 5, 1))\" y=\"\(f(Double(y(a.north))! - 5, 1))\" width=\"10\" height=\"10\" fill=\"#d6336c\"/>\n"
      let name = i < report.anchors.count ? report.anchors[i].name : "anchor \(i + 1)"
      s +=
        "<text x=\"\(f(Double(x(a.east))! + 8, 1))\" y=\"\(f(Double(y(a.north))! - 8, 1))\" font-size=\"12\">\(escape(name))</text>\n"
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
      "<p class=\"legend\"><span style=\"color:#1d2330\">━ truth</span><span style=\"color:#2f7de1\">━ fused track and its 1σ band</span>"
    s +=
      "<span style=\"color:#c77b12\">● GPS fixes and accuracy circles</span><span style=\"color:#d6336c\">■ anchors</span></p>\n"
    return s
  }
}
