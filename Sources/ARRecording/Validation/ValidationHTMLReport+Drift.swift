extension ValidationHTMLReport {
  /// Each drift anchor's distance from where the truth puts it over time, and a table of its
  /// statistics and worst moments.
  func driftSection(_ track: TrackDrift) -> String {
    let anchors = track.drift.anchors
    let offset = anchors.first.map { "[" + $0.offset.map { f($0, 2) }.joined(separator: ", ") + "] m" } ?? "–"
    var s =
      "<p class=\"note\">Anchors placed in front of the camera at \(offset) in its frame (as an app places content) through the recording's poses and through \(truthName(track)) alike; the drift is how far apart the two then are, in the camera's frame and on screen.</p>\n"
    let start = anchors.first?.placedAt ?? 0
    let series = anchors.map { $0.series.map { ($0.t - start, $0.errorM) } }
    if let end = series.flatMap({ $0.map(\.0) }).max(), end > 0,
      let top = series.flatMap({ $0.map(\.1) }).max(), top > 0
    {
      let axes = TimeAxes(height: 220, end: end, top: top)
      let (x, y, colours) = (axes.x, axes.y, TimeAxes.colours)
      s += axes.frame(topLabel: "\(f(top * 100, 1)) cm")
      for (i, points) in series.enumerated() where !points.isEmpty {
        let path = points.prefix(20_000).map { "\(x($0.0)),\(y($0.1))" }.joined(separator: " ")
        s +=
          "<polyline fill=\"none\" stroke=\"\(colours[i % colours.count])\" stroke-width=\"1.2\" points=\"\(path)\"/>\n"
      }
      s +=
        "</svg>\n<p class=\"legend\"><span>— each anchor's drift from its placing on (m; one colour an anchor)</span></p>\n"
    } else {
      s +=
        "<p class=\"note\">No drift over time: the series is left out of this report (give the full report, --json's).</p>\n"
    }
    s += "<table><tr><th>placed at (s)</th><th>median (m)</th><th>p95 (m)</th><th>max (m)</th>"
    s += "<th>median (px)</th><th>p95 (px)</th><th>worst at (s)</th></tr>\n"
    for anchor in anchors {
      s +=
        "<tr><td>\(f(anchor.placedAt - start, 1))</td><td>\(f(anchor.errorM.median, 3))</td><td>\(f(anchor.errorM.p95, 3))</td>"
        + "<td>\(f(anchor.errorM.max, 3))</td><td>\(f(anchor.errorPx?.median, 1))</td><td>\(f(anchor.errorPx?.p95, 1))</td>"
        + "<td>\(anchor.worst.prefix(3).map { f($0.t - start, 1) }.joined(separator: ", "))</td></tr>\n"
    }
    if track.drift.errorPx == nil {
      s +=
        "</table>\n<p class=\"note\">Not measured in pixels: the recording's frames state no intrinsics.</p>\n"
    } else {
      s += "</table>\n"
    }
    return s
  }

  /// What the drift's truth was, as a sentence's object.
  func truthName(_ track: TrackDrift) -> String {
    if let file = track.truthTrack { return "the truth track <code>\(escape(file))</code>" }
    return track.truth == "control" ? "the control points' fit of the truth" : "the recording's own truth"
  }
}
