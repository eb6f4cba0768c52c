import ArgumentParser

/// A coordinate axis, `x`, `y` or `z`, as a unit vector.
enum AxisChoice: String, ExpressibleByArgument, CaseIterable {
  case x, y, z

  var unit: SIMD3<Double> {
    switch self {
    case .x: [1, 0, 0]
    case .y: [0, 1, 0]
    case .z: [0, 0, 1]
    }
  }
}
