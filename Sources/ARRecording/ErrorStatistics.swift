/// Statistics of per-pose errors, as evo reports them (`std` is the population deviation).
public struct ErrorStatistics: Codable, Sendable, Equatable {
  /// Root mean square, mean, median, population standard deviation, smallest and largest error,
  /// and the sum of squared errors (evo's `rmse`, `mean`, `median`, `std`, `min`, `max`, `sse`);
  /// metres or degrees as the errors are.
  public var rmse: Double, mean: Double, median: Double, std: Double, min: Double, max: Double, sse: Double
  /// Number of errors.
  public var pairs: Int

  /// The statistics of `errors` (at least one).
  public init(_ errors: [Double]) {
    precondition(!errors.isEmpty, "statistics of no errors")
    let n = Double(errors.count)
    sse = errors.reduce(0) { $0 + $1 * $1 }
    rmse = (sse / n).squareRoot()
    mean = errors.reduce(0, +) / n
    let mean = self.mean
    std = (errors.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n).squareRoot()
    let sorted = errors.sorted()
    median =
      sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    (min, max) = (sorted[0], sorted[sorted.count - 1])
    pairs = errors.count
  }
}
