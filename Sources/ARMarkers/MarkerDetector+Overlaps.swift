extension MarkerDetector {
  /// One report a marker: readings whose outlines overlap (either's centre inside the other)
  /// are one square read by more than one thresholding rule.
  /// Of readings of one id the best is kept (fewest corrected bits, then refined corners, then
  /// the widest decision margin); readings of different ids at one place keep the one with
  /// fewer corrected bits, and withhold both when neither has fewer: a square read two ways is
  /// not evidence for either.
  static func resolvingOverlaps(_ readings: [DetectedMarker]) -> [DetectedMarker] {
    let ranked = readings.enumerated().sorted { a, b in
      let (x, y) = (a.element, b.element)
      if x.hamming != y.hamming { return x.hamming < y.hamming }
      if (x.cornerSigma != nil) != (y.cornerSigma != nil) { return x.cornerSigma != nil }
      if (x.decisionMargin ?? 0) != (y.decisionMargin ?? 0) {
        return (x.decisionMargin ?? 0) > (y.decisionMargin ?? 0)
      }
      return a.offset < b.offset
    }.map(\.element)
    var kept: [(marker: DetectedMarker, contested: Bool)] = []
    for reading in ranked {
      let overlapping = kept.indices.filter { k in
        let other = kept[k].marker
        return other.encloses(reading.centre) || reading.encloses(other.centre)
      }
      guard !overlapping.isEmpty else {
        kept.append((reading, false))
        continue
      }
      for k in overlapping where kept[k].marker.id != reading.id && kept[k].marker.hamming == reading.hamming
      {
        kept[k].contested = true
      }
    }
    return kept.filter { !$0.contested }.map(\.marker)
  }
}

extension DetectedMarker {
  /// Whether `point` is inside the marker's outline (a convex quadrilateral, either winding).
  func encloses(_ point: SIMD2<Double>) -> Bool {
    // Every side turns the same way to the point (or is on it); a turn that is not a number
    // encloses nothing. (Asked for every outline and reading: no array of the turns.)
    var (left, right) = (false, false)
    for i in corners.indices {
      let (a, b) = (corners[i], corners[(i + 1) % corners.count])
      let turn = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
      guard !turn.isNaN else { return false }
      (left, right) = (left || turn > 0, right || turn < 0)
    }
    return !(left && right)
  }
}
