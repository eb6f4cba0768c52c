import ARGeo
import ARImage
import ARMarkers
import ARMath
import ARRecording

/// Finds a site's surveyed markers (control points with a `ControlPoint.Marker`) in a
/// recording's frames: each corner found is a control observation (`ControlObservation`,
/// source `marker`), its σ the detector's corner uncertainty. Frames are looked at once every
/// ``interval`` seconds at most (a marker seen in consecutive frames adds little, and decoding
/// costs).
public final class ControlMarkerFinder {
  /// Seconds between the frames looked at.
  public var interval: Double
  private let images: RecordingFrameImages
  /// Each dictionary's detector and the control points' names by marker id.
  private let searches: [(detector: MarkerDetector, names: [Int: String])]
  private var lastLooked = -Double.infinity
  /// Frames looked at.
  public private(set) var framesLooked = 0

  /// A finder of `controlPoints`' markers in the images of a recording whose relative paths
  /// start at `baseFolder`; nil when none of the points is a marker.
  ///
  /// - Throws: ``ControlMarkerCardError`` for a dictionary ARScene does not know.
  public init?(controlPoints: [ControlPoint], baseFolder: String, interval: Double = 1)
    throws(ControlMarkerCardError)
  {
    var byDictionary: [String: [Int: String]] = [:]
    for point in controlPoints {
      guard let marker = point.marker else { continue }
      guard MarkerDictionary.named(marker.dictionary) != nil else {
        throw .unknownDictionary(point: point.name, dictionary: marker.dictionary)
      }
      byDictionary[marker.dictionary.lowercased(), default: [:]][marker.id] = point.name
    }
    guard !byDictionary.isEmpty else { return nil }
    searches = byDictionary.keys.sorted().map { name in
      (MarkerDetector(dictionary: MarkerDictionary.named(name)!), byDictionary[name]!)
    }
    images = RecordingFrameImages(baseFolder: baseFolder)
    self.interval = interval
  }

  /// The corners of the control markers seen in `frame`'s image (none for a frame without an
  /// image, or within ``interval`` of the last one looked at).
  ///
  /// - Throws: The image's decoding error.
  public func observations(in frame: CameraFrameSample) throws -> [ControlObservation] {
    guard let source = frame.image, frame.intrinsics != nil, frame.time >= lastLooked + interval - 1e-9 else {
      return []
    }
    lastLooked = frame.time
    framesLooked += 1
    let image = try images.image(source, in: frame.archive)
    var found: [ControlObservation] = []
    for search in searches {
      for marker in search.detector.detect(image) {
        guard let name = search.names[marker.id] else { continue }
        for (corner, pixel) in marker.corners.enumerated() {
          found.append(
            ControlObservation(
              time: frame.time, name: name, corner: corner, pixel: pixel,
              sigmaPixels: Swift.max(marker.poseSigma, 0.1), source: .marker))
        }
      }
    }
    return found
  }
}
