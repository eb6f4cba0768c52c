/// Pairs the poses of two trajectories by time, as evo does (`sync.associate_trajectories`):
/// each pose of the trajectory with fewer poses takes the other's nearest pose within
/// `maxDifference` seconds (on a tie, the earlier), after `offset` seconds are added to the
/// second trajectory's times.
public struct TimeAssociation: Sendable, Equatable {
  /// The paired indices into the first and the second trajectory, in time order.
  public var first: [Int], second: [Int]

  /// The pairs of `a` and `b`.
  /// - Throws: ``TrajectoryError/incomparable(_:)`` when no pose pairs within the difference.
  public init(_ a: Trajectory, _ b: Trajectory, maxDifference: Double = 0.01, offset: Double = 0)
    throws(TrajectoryError)
  {
    // From the shorter trajectory, so that none of its poses is lost.
    let secondLonger = b.count > a.count
    let short = secondLonger ? a.timestamps : b.timestamps
    let long = (secondLonger ? b.timestamps : a.timestamps).map { $0 + (secondLonger ? offset : -offset) }
    var shortIndices: [Int] = [], longIndices: [Int] = []
    if let lo = long.first, let hi = long.last {
      for (i, t) in short.enumerated() where t >= lo - maxDifference && t <= hi + maxDifference {
        // The first long time after t (binary search), clamped to the last.
        var low = 0, high = long.count
        while low < high {
          let mid = (low + high) / 2
          if long[mid] <= t { low = mid + 1 } else { high = mid }
        }
        let upper = min(low, long.count - 1)
        let above = long[upper] - t
        let below = upper > 0 ? t - long[upper - 1] : .infinity
        if above <= maxDifference && above < below {
          shortIndices.append(i)
          longIndices.append(upper)
        } else if below <= maxDifference && below <= above {
          shortIndices.append(i)
          longIndices.append(upper - 1)
        }
      }
    }
    guard !shortIndices.isEmpty else {
      throw .incomparable(
        "no poses of the two trajectories are within \(maxDifference) s of each other (offset \(offset) s)")
    }
    (first, second) = secondLonger ? (shortIndices, longIndices) : (longIndices, shortIndices)
  }
}
