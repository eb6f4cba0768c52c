import ARMath
import ARPose
import Foundation

/// A rig file that cannot be used: its path, the field, why.
public struct MarkerRigError: Error, CustomStringConvertible, Sendable {
  public var path: String
  public var field: String?
  public var reason: String
  public var description: String { "\(path): " + (field.map { $0 + ": " } ?? "") + reason }
}
