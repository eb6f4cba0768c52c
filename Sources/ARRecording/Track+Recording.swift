import ARGeo
import ARPlaces

extension Track {
  /// The track at `path`: a GPX file (by its `.gpx` name), else a recording in any layout
  /// ARRecording reads, whose GNSS fixes make the track (each fix's ellipsoidal height, 0 where
  /// it has none; its horizontal accuracy where positive).
  ///
  /// - Throws: ARPlaces' `PlaceFileError` for a GPX file or a recording without a single fix,
  ///   ARRecording's `RecordingError` for a recording that cannot be read; each names the file
  ///   (and line).
  public static func read(path: String) throws -> Track {
    if path.lowercased().hasSuffix(".gpx") { return try readGPX(path: path) }
    var fixes: [TrackFix] = []
    let reader = try RecordingReader(path: path)
    while let record = try reader.next() {
      guard case .gps(let fix) = record else { continue }
      fixes.append(
        TrackFix(
          time: fix.time,
          coordinate: GeodeticCoordinate(
            latitudeDegrees: fix.latitude, longitudeDegrees: fix.longitude, height: fix.ellipsoidalHeight ?? 0
          ),
          accuracy: fix.horizontalAccuracy > 0 ? fix.horizontalAccuracy : nil))
    }
    guard !fixes.isEmpty else {
      throw PlaceFileError.invalid(path: path, field: "gps", reason: "no GNSS fixes to replay")
    }
    return Track(fixes: fixes)
  }
}
