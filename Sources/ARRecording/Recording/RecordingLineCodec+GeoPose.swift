import ARMath

extension RecordingLineCodec {
  /// A `geo_pose` record's members after its type and time.
  static func writeGeoPose(_ g: GeoPoseSample, to w: inout Writer) {
    w.number("latitude", g.latitude)
    w.number("longitude", g.longitude)
    w.number("height", g.height)
    if let q = g.localFromCamera?.vector { w.numbers("local_from_camera_xyzw", [q.x, q.y, q.z, q.w]) }
    if let h = g.horizontalAccuracy { w.number("horizontal_accuracy", h) }
    if let v = g.verticalAccuracy { w.number("vertical_accuracy", v) }
    if let y = g.yawAccuracyDegrees { w.number("yaw_accuracy_deg", y) }
    if let s = g.trackingState { w.string("tracking_state", s) }
    if let a = g.accuracyLevel { w.string("accuracy_level", a) }
  }

  /// A `geo_pose` record: the platform's geo pose and its claims (accuracies ≥ 0, a unit
  /// orientation, ARKit's states by their names).
  static func geoPoseRecord(_ o: JSONLine, time t: Double) throws(JSONLine.Failure) -> RecordingRecord {
    try rejectUnknown(o, .geoPose)
    var pose = GeoPoseSample(
      time: t, latitude: try o.number(.latitude), longitude: try o.number(.longitude),
      height: try o.number(.height),
      horizontalAccuracy: try o.optionalNumber(.horizontalAccuracy),
      verticalAccuracy: try o.optionalNumber(.verticalAccuracy),
      yawAccuracyDegrees: try o.optionalNumber(.yawAccuracyDegrees),
      trackingState: try o.optionalString(.trackingState), accuracyLevel: try o.optionalString(.accuracyLevel)
    )
    if let q = try o.optionalNumbers(.localFromCameraXYZW, count: 4) {
      pose.localFromCamera = try unitQuaternion(q, field: "local_from_camera_xyzw")
    }
    try RecordCheck.position(latitude: pose.latitude, longitude: pose.longitude)
    for (name, value) in [
      ("horizontal_accuracy", pose.horizontalAccuracy), ("vertical_accuracy", pose.verticalAccuracy),
      ("yaw_accuracy_deg", pose.yawAccuracyDegrees),
    ] {
      if let value, !(value >= 0) { throw JSONLine.Failure(field: name, reason: "must be ≥ 0") }
    }
    let states = ["not_available", "initializing", "localizing", "localized"]
    if let s = pose.trackingState, !states.contains(s) {
      throw JSONLine.Failure(
        field: "tracking_state", reason: "'\(s.escapedForMessage)' is not one of \(states)")
    }
    let levels = ["undetermined", "low", "medium", "high"]
    if let a = pose.accuracyLevel, !levels.contains(a) {
      throw JSONLine.Failure(
        field: "accuracy_level", reason: "'\(a.escapedForMessage)' is not one of \(levels)")
    }
    return .geoPose(pose)
  }
}
