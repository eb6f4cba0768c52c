import ARImage
import ARMath
import Foundation

/// A shipped preset as `arscene film list` prints it.
public struct FilmPresetSummary: Encodable, Sendable {
  /// What `--preset` takes.
  public var name: String
  /// The stock's name for people.
  public var title: String
  /// `colour` or `black-and-white`.
  public var kind: String
  /// One sentence on the look, for people.
  public var description: String

  /// A summary with these fields.
  public init(name: String, title: String, kind: String, description: String) {
    self.name = name
    self.title = title
    self.kind = kind
    self.description = description
  }
}
