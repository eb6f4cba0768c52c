import ARImage
import ARMath
import ARPose
import Foundation

/// A marker found in an image.
public struct DetectedMarker: Sendable, Equatable {
  /// Its id in the dictionary.
  public var id: Int
  /// Its corners in ARScene's pixel convention (top-left origin, pixel centres at +0.5), in the
  /// dictionary's order: the top-left, top-right, bottom-right and bottom-left corners of the
  /// marker as drawn, wherever they are in the image.
  public var corners: [SIMD2<Double>]
  /// Bits that differed from the dictionary's code (corrected).
  public var hamming: Int
  /// AprilTag's decision margin, grey levels (0–255): the lesser of the white cells' mean
  /// excess over their local threshold and the black cells' mean shortfall under it; how
  /// clearly the cells were read. Nil where not measured (a marker built by hand).
  public var decisionMargin: Double?
  /// Whether the marker runs to the image's edge, its corners there estimated (its border, or
  /// more, may be cut off; every data cell was inside the image).
  public var truncated: Bool
  /// The corners' 1-σ uncertainty per coordinate, pixels: from the scatter of the edge points
  /// the sides were fitted through, and from the edges' width, so it grows with noise and
  /// blur. Nil when a corner could not be refined onto the edges (it is then the outline's,
  /// good to a pixel or two).
  public var cornerSigma: Double?

  /// The pixel noise to pose the marker with: ``cornerSigma``, or a pixel when the corners
  /// are the outline's.
  public var poseSigma: Double { cornerSigma ?? 1 }

  /// A marker with these values.
  public init(
    id: Int, corners: [SIMD2<Double>], hamming: Int, cornerSigma: Double? = nil,
    decisionMargin: Double? = nil,
    truncated: Bool = false
  ) {
    self.truncated = truncated
    self.id = id
    self.corners = corners
    self.hamming = hamming
    self.cornerSigma = cornerSigma
    self.decisionMargin = decisionMargin
  }

  /// The marker's centre (the mean of its corners), pixels.
  var centre: SIMD2<Double> { corners.reduce(.zero, +) / Double(Swift.max(1, corners.count)) }
}
