import ARImage
import ARMath
import Foundation

/// The input rows around an output row, for a ``FilmNeighbourhood``'s filter.
public struct FilmWindow {
  let rows: UnsafePointer<FilmRow>
  let derived: UnsafePointer<UnsafePointer<Float>>?
  /// The rows' width in pixels.
  public let width: Int
  /// How many rows above and below the output row the window holds.
  public let reach: Int

  /// The input row `dy` rows below the output row (−`reach` … `reach`; rows beyond the image's
  /// edges repeat its first or last row).
  @inline(__always)
  public func row(_ dy: Int) -> FilmRow { rows[dy + reach] }

  /// Derived plane `plane` of row `dy` (only when the neighbourhood derives planes).
  @inline(__always)
  public func plane(_ plane: Int, _ dy: Int) -> UnsafePointer<Float> {
    derived![dy + reach] + plane * FilmRow.padded(width)
  }
}
