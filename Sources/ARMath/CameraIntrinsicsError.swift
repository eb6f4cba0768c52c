import RealModule

/// Why numbers do not make usable camera intrinsics.
public enum CameraIntrinsicsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `field` (`fx`, `fy`, `cx`, `cy`, `width` or `height`) is out of range.
  case invalid(field: String, reason: String)

  public var description: String {
    switch self {
    case .invalid(let field, let reason): "\(field) \(reason)"
    }
  }
}
