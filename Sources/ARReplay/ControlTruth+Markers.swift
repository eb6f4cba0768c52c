import ARGeo
import ARRecording

extension ControlTruth {
  /// The control truth of the recording `reader` reads, as `arscene validate` gathers it:
  /// `clicks` (read from `clicksPath`), the recording's taps naming `site`'s control points, and
  /// the surveyed markers a ``ControlMarkerFinder`` finds in its frames' images, fitted over
  /// windows of `window` seconds; nil when `site` has no control points.
  ///
  /// - Throws: ``ControlMarkerCardError`` for a marker of a dictionary ARScene does not know,
  ///   `RecordingError` for the recording and the clicks, an image's decoding error.
  public static func collectFromFrames(
    _ reader: RecordingReader, site: GeoSite, clicks: [ControlObservation] = [],
    clicksPath: String = "clicks",
    window: Double = 30
  ) throws -> ControlTruth? {
    guard !site.controlPoints.isEmpty else { return nil }
    let markers = try ControlMarkerFinder(controlPoints: site.controlPoints, baseFolder: reader.baseFolder)
    return try collect(
      reader, site: site, clicks: clicks, clicksPath: clicksPath, window: window,
      inFrame: markers.map { finder in { try finder.observations(in: $0) } })
  }
}
