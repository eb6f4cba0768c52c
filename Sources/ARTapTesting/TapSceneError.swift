import ARHit
import ARMesh

/// Why a tap test could not be set up or run.
public enum TapSceneError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The model file could not be read.
  case model(ModelError)
  /// The point file could not be read.
  case points(PointSetError)
  /// The hit tester refused its input (a degenerate mesh, a bad target or tap).
  case hit(HitError)
  /// No target has this code.
  case unknownTarget(String, known: [String])
  /// The phone cannot be placed so.
  case invalidPlacement(String)
  /// The target does not show in the view (behind the camera or off screen).
  case notInView(String)

  public var description: String {
    switch self {
    case .model(let error): error.description
    case .points(let error): error.description
    case .hit(let error): error.description
    case .unknownTarget(let code, let known):
      "no target '\(code)' (targets: \(known.joined(separator: ", ")))"
    case .invalidPlacement(let why): "cannot place the phone: \(why)"
    case .notInView(let code): "target '\(code)' is not in view"
    }
  }
}
