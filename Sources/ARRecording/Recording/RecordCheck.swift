import ARMath

/// Range checks every reader applies to what it read, so that no format lets through a fix off
/// the globe or a heading past a full turn.
enum RecordCheck {
  static func position(latitude: Double, longitude: Double) throws(JSONLine.Failure) {
    guard abs(latitude) <= 90 else {
      throw JSONLine.Failure(field: "latitude", reason: "\(latitude) is outside ±90°")
    }
    guard abs(longitude) <= 180 else {
      throw JSONLine.Failure(field: "longitude", reason: "\(longitude) is outside ±180°")
    }
  }

  static func gps(_ fix: GPSFix) throws(JSONLine.Failure) {
    try position(latitude: fix.latitude, longitude: fix.longitude)
    guard fix.horizontalAccuracy >= 0 else {
      throw JSONLine.Failure(field: "horizontal_accuracy", reason: "must be ≥ 0 metres")
    }
    if let v = fix.verticalAccuracy, v < 0 {
      throw JSONLine.Failure(field: "vertical_accuracy", reason: "must be ≥ 0 metres (omit it when invalid)")
    }
    if let c = fix.courseDegrees, !(0..<360).contains(c) {
      throw JSONLine.Failure(field: "course_deg", reason: "\(c) is outside [0, 360) (omit it when invalid)")
    }
    if let s = fix.speed, s < 0 {
      throw JSONLine.Failure(field: "speed", reason: "must be ≥ 0 (omit it when invalid)")
    }
  }

  static func heading(_ h: HeadingSample) throws(JSONLine.Failure) {
    guard (0..<360).contains(h.magneticHeadingDegrees) else {
      throw JSONLine.Failure(
        field: "magnetic_heading_deg", reason: "\(h.magneticHeadingDegrees) is outside [0, 360)")
    }
    if let t = h.trueHeadingDegrees, !(0..<360).contains(t) {
      throw JSONLine.Failure(
        field: "true_heading_deg", reason: "\(t) is outside [0, 360) (omit it when invalid)")
    }
    if let a = h.accuracyDegrees, a < 0 {
      throw JSONLine.Failure(field: "accuracy_deg", reason: "must be ≥ 0 (omit it when invalid)")
    }
  }
}
