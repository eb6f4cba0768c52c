import Foundation

/// Which part of a list of work one job takes: items `i` with `i mod count == index`.
package struct ShardSelection: Sendable, Equatable, CustomStringConvertible {
  /// 0-based.
  package var index: Int
  /// How many parts the work is split into.
  package var count: Int

  /// All of it.
  package static let whole = ShardSelection(index: 0, count: 1)

  /// Part `index` (0-based) of `count`.
  package init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `I/N`; or `auto/N` and `auto`, the index from the scheduler's environment: a Kubernetes
  /// Indexed Job's `JOB_COMPLETION_INDEX`, or a Slurm array's `SLURM_ARRAY_TASK_ID` (less
  /// `SLURM_ARRAY_TASK_MIN`, with `SLURM_ARRAY_TASK_COUNT` for N when it is not given).
  package init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(RecordingError)
  {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    func fail(_ reason: String) -> RecordingError {
      .badRecord(path: "--shard", line: 0, field: text, reason: reason)
    }
    guard (1...2).contains(parts.count) else { throw fail("expected I/N, auto/N or auto") }
    var count: Int?
    if parts.count == 2 {
      guard let n = Int(parts[1]), n >= 1 else { throw fail("N must be a whole number ≥ 1") }
      count = n
    }
    if parts[0] == "auto" {
      if let k8s = environment["JOB_COMPLETION_INDEX"], let i = Int(k8s) {
        index = i
      } else if let slurm = environment["SLURM_ARRAY_TASK_ID"], let i = Int(slurm) {
        index = i - (environment["SLURM_ARRAY_TASK_MIN"].flatMap { Int($0) } ?? 0)
        count = count ?? environment["SLURM_ARRAY_TASK_COUNT"].flatMap { Int($0) }
      } else {
        throw fail(
          "auto needs JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm) in the environment")
      }
    } else {
      guard parts.count == 2, let i = Int(parts[0]) else { throw fail("expected I/N, auto/N or auto") }
      index = i
    }
    guard let count else {
      throw fail("give N (auto/N): the scheduler does not say how many shards there are")
    }
    self.count = count
    guard (0..<count).contains(index) else { throw fail("shard \(index) is outside 0..<\(count)") }
  }

  /// Whether item `i` belongs to this shard.
  package func contains(_ i: Int) -> Bool { i % count == index }

  package var description: String { "\(index)/\(count)" }
}
