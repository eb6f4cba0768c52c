/// How an estimated trajectory is brought onto a reference before its errors are taken.
public enum PoseAlignment: String, Sendable, CaseIterable, Encodable {
  /// As it is.
  case none
  /// Rotation and translation (Umeyama; evo `-a`).
  case se3
  /// Rotation, translation and scale (evo `-as`).
  case sim3
  /// Scale alone, found with the rotation (evo `-s`).
  case scale
  /// Yaw about gravity and translation: what a visual-inertial odometry's frame can differ by,
  /// since it knows gravity (evo has no such alignment).
  case posyaw
}
