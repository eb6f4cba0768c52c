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
  public var description: String

  public init(name: String, title: String, kind: String, description: String) {
    self.name = name
    self.title = title
    self.kind = kind
    self.description = description
  }
}
