import ArgumentParser

/// The least confidence of a depth measurement that may hide virtual content (ARKit's
/// `ARConfidenceLevel`: low 0, medium 1, high 2).
enum DepthConfidenceChoice: String, ExpressibleByArgument, CaseIterable {
  case low, medium, high

  /// ARKit's level.
  var level: UInt8 {
    switch self {
    case .low: 0
    case .medium: 1
    case .high: 2
    }
  }
}
