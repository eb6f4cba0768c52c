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

  /// `I/N`; or `auto/N`, `auto/auto` and `auto`, the index (and with `auto/auto` or `auto`, the
  /// count) from the scheduler's environment (``schedulers``): a Kubernetes Indexed Job's
  /// `JOB_COMPLETION_INDEX`, a Slurm array's `SLURM_ARRAY_TASK_ID` (less `SLURM_ARRAY_TASK_MIN`;
  /// `SLURM_ARRAY_TASK_COUNT`), an AWS Batch array's `AWS_BATCH_JOB_ARRAY_INDEX`, or a Google
  /// Cloud Batch task's `BATCH_TASK_INDEX` (`BATCH_TASK_COUNT`). Kubernetes and AWS Batch do not
  /// state the count: give N.
  package init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(RecordingError)
  {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    func fail(_ reason: String) -> RecordingError {
      .badRecord(path: "--shard", line: 0, field: text, reason: reason)
    }
    guard (1...2).contains(parts.count) else { throw fail("expected I/N, auto/N, auto/auto or auto") }
    var count: Int?
    if parts.count == 2, parts[1] != "auto" {
      guard let n = Int(parts[1]), n >= 1 else { throw fail("N must be a whole number ≥ 1 (or auto)") }
      count = n
    }
    if parts[0] == "auto" {
      guard let (engine, i, stated) = Self.scheduler(environment) else {
        throw fail("auto needs \(Self.schedulers.map(\.index).joined(separator: ", ")) in the environment")
      }
      index = i
      if count == nil, let stated { count = stated }
      guard count != nil else {
        throw fail("give N (auto/N): \(engine) does not say how many shards there are")
      }
    } else {
      guard parts.count == 2, parts[1] != "auto", let i = Int(parts[0]) else {
        throw fail("expected I/N, auto/N, auto/auto or auto")
      }
      index = i
    }
    self.count = count!
    guard (0..<self.count).contains(index) else { throw fail("shard \(index) is outside 0..<\(self.count)") }
  }

  /// The schedulers whose array index `auto` reads, in the order it looks: their name, the
  /// index variable, the first index's variable (when the index may start past 0) and the
  /// count's variable (when the engine states it).
  static let schedulers: [(name: String, index: String, first: String?, count: String?)] = [
    ("Kubernetes", "JOB_COMPLETION_INDEX", nil, nil),
    ("Slurm", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_COUNT"),
    ("AWS Batch", "AWS_BATCH_JOB_ARRAY_INDEX", nil, nil),
    ("Google Cloud Batch", "BATCH_TASK_INDEX", nil, "BATCH_TASK_COUNT"),
  ]

  /// The first scheduler whose index is set: its name, the 0-based index and the count it states.
  private static func scheduler(_ environment: [String: String]) -> (String, Int, Int?)? {
    for s in schedulers {
      guard let text = environment[s.index], let i = Int(text) else { continue }
      let first = s.first.flatMap { environment[$0] }.flatMap { Int($0) } ?? 0
      return (s.name, i - first, s.count.flatMap { environment[$0] }.flatMap { Int($0) })
    }
    return nil
  }

  /// Whether item `i` belongs to this shard.
  package func contains(_ i: Int) -> Bool { i % count == index }

  package var description: String { "\(index)/\(count)" }
}
