import ARImage
import ARMath
import Foundation

/// A stage that makes each row from its input's rows `y − reach … y + reach` (clamped at the
/// image's top and bottom edges).
public struct FilmNeighbourhood: Sendable {
  /// How many rows above and below the filter reads.
  public var reach: Int
  /// How many planes of values the filter derives from each input row (a bilateral filter's
  /// luminance, soft focus's colour planes blurred across), made once per row rather than once
  /// per output row that reads it.
  public var planes: Int
  /// Writes a row's `planes` planes, one after the other, each `paddedWidth` values; nil when
  /// `planes` is 0.
  public var derive: FilmRowValues?
  /// Writes output row `y` from the window of input rows.
  public var filter: @Sendable (_ window: FilmWindow, _ out: FilmRow, _ y: Int) -> Void

  /// A filter reading `reach` rows above and below each output row, deriving `planes` planes per
  /// input row with `derive`.
  public init(
    reach: Int, planes: Int = 0, derive: FilmRowValues? = nil,
    filter: @escaping @Sendable (FilmWindow, FilmRow, Int) -> Void
  ) {
    self.reach = reach
    self.planes = derive == nil ? 0 : planes
    self.derive = derive
    self.filter = filter
  }
}
