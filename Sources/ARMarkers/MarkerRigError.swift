import ARMath
import ARPose
import Foundation

/// A rig file that cannot be used: its path, the field, why.
public struct MarkerRigError: Error, CustomStringConvertible, Sendable {
  /// The rig file.
  public var path: String
  /// The field at fault (`markers[2].size`, …), when one is.
  public var field: String?
  /// Why the file is refused.
  public var reason: String
  public var description: String { "\(path): " + (field.map { $0 + ": " } ?? "") + reason }
}
