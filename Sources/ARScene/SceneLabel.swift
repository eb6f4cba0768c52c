/// A label over a scene object, as AR guides show points of interest: a dark rounded panel
/// with the object's name and its distance from the camera, always facing the screen and of a
/// constant size on it, on a pointer down to a point above the object.
public struct SceneLabel: Sendable, Equatable {
  /// What the label says.
  public var text: String
  /// Metres above the object's origin (world +Y) where the pointer ends.
  public var height: Double
  /// Whether the camera's distance to the object's origin follows the text.
  public var showsDistance: Bool

  /// A label saying `text`, its pointer ending `height` metres above the object's origin.
  public init(text: String, height: Double, showsDistance: Bool = true) {
    self.text = text
    self.height = height
    self.showsDistance = showsDistance
  }
}
