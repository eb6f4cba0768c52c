/// One sighting of a control point in a camera image: where in the frame at `time` a person
/// clicked it, a tap named it, or the marker detector found one of its corners.
public struct ControlObservation: Sendable, Equatable {
  /// Who made the observation.
  public enum Source: String, Sendable, Codable {
    /// A person's click in a labelling tool (`validate --control`).
    case click
    /// A recording's `tap` record whose `expected` names the control point.
    case tap
    /// A corner of a surveyed marker found in the frame's image.
    case marker
  }

  /// The frame's time, seconds on the recording's clock.
  public var time: Double
  /// The control point's name.
  public var name: String
  /// For a marker's corner, which (0–3, OpenCV's order: top-left, top-right, bottom-right,
  /// bottom-left); nil for the point itself (a marker's centre).
  public var corner: Int?
  /// Pixels in the camera image, ARScene's convention (top-left origin, centres at +0.5).
  public var pixel: SIMD2<Double>
  /// The observation's 1σ per image axis, pixels.
  public var sigmaPixels: Double
  /// Where it came from.
  public var source: Source
  /// The line of the file it came from (a clicks file's, or the recording's), 0 when none.
  public var line: Int

  /// An observation; nothing is validated (readers validate what they read).
  public init(
    time: Double, name: String, corner: Int? = nil, pixel: SIMD2<Double>, sigmaPixels: Double, source: Source,
    line: Int = 0
  ) {
    self.time = time
    self.name = name
    self.corner = corner
    self.pixel = pixel
    self.sigmaPixels = sigmaPixels
    self.source = source
    self.line = line
  }

  /// The σ of a click without a `sigma_px` column, pixels: a careful click on a sharp frame.
  public static let defaultClickSigma = 2.0
  /// The σ of a tap, pixels: a fingertip's contact is about 7 mm across, so a tap's centre
  /// misses by a few display points, ten pixels or so of a 1920×1440 camera image.
  public static let tapSigma = 10.0
}
