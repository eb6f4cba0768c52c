import Foundation

/// One part of a validation run over many recordings: which part it is, and the summary report
/// of each recording it validated. `arscene validate --manifest M --shard I/N` writes one;
/// `arscene validate --merge` combines them (``ValidationBatchSummary``).
public struct ValidationShard: Codable, Sendable {
  /// `I/N`.
  public var shard: String
  /// Each recording (as the manifest names it) and its report's summary.
  public var recordings: [Entry]

  public struct Entry: Codable, Sendable {
    public var recording: String
    public var report: ValidationReport

    public init(recording: String, report: ValidationReport) {
      self.recording = recording
      self.report = report
    }
  }

  public init(shard: String, recordings: [Entry]) {
    self.shard = shard
    self.recordings = recordings
  }
}

/// Which part of a list of work one job takes: items `i` with `i mod count == index`.
public struct ShardSelection: Sendable, Equatable, CustomStringConvertible {
  /// 0-based.
  public var index: Int
  public var count: Int

  /// All of it.
  public static let whole = ShardSelection(index: 0, count: 1)

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// `I/N`; or `auto/N` and `auto`, the index from the scheduler's environment: a Kubernetes
  /// Indexed Job's `JOB_COMPLETION_INDEX`, or a Slurm array's `SLURM_ARRAY_TASK_ID` (less
  /// `SLURM_ARRAY_TASK_MIN`, with `SLURM_ARRAY_TASK_COUNT` for N when it is not given).
  public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
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
  public func contains(_ i: Int) -> Bool { i % count == index }

  public var description: String { "\(index)/\(count)" }
}

/// The recordings a manifest lists: one path a line (relative to the manifest's folder), blank
/// lines and `#` comments skipped.
public enum ValidationManifest {
  public static func read(path: String) throws(RecordingError) -> [String] {
    let lines = try LineRecordSource.allLines(path)
    let folder = RecordingFormat.parent(path)
    return lines.compactMap { bytes in
      let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
      guard !line.isEmpty, !line.hasPrefix("#") else { return nil }
      return line.hasPrefix("/") ? line : RecordingFormat.join(folder, line)
    }
  }
}

/// Many recordings' validations in one: what `arscene validate --merge` prints. For each anchor
/// (by name), its final errors across recordings and how honest the claimed σ was across them.
public struct ValidationBatchSummary: Codable, Sendable {
  /// The shards merged, and the recordings they held.
  public var shards: [String]
  public var recordings: Int
  /// Recordings whose shard appears twice are counted once; missing shards are named.
  public var missingShards: [String]
  public var anchors: [Anchor]
  /// The mean, over recordings with truth, of the fraction of fixes within their accuracy.
  public var gpsWithinAccuracy: Double?
  /// Every recording's summary, in manifest order.
  public var perRecording: [ValidationShard.Entry]

  public struct Anchor: Codable, Sendable {
    public var name: String
    /// The fused placement's error at each recording's end, and the raw placement's.
    public var finalError: ValidationReport.Statistics
    public var rawFinalError: ValidationReport.Statistics?
    /// RMS of the final errors over RMS of the final claimed σ: 1 when honest.
    public var normalizedRMS: Double
    /// The fraction of recordings whose final error was within 3σ.
    public var within3Sigma: Double
  }

  /// Combines shards (each shard once; recordings in the order of their shard's index).
  public init(_ shards: [ValidationShard]) {
    var seen: [String: ValidationShard] = [:]
    for shard in shards where seen[shard.shard] == nil { seen[shard.shard] = shard }
    let ordered = seen.values.sorted { a, b in
      let (x, y) = (a.shard.split(separator: "/"), b.shard.split(separator: "/"))
      return (Int(x.first ?? "") ?? 0) < (Int(y.first ?? "") ?? 0)
    }
    self.shards = ordered.map(\.shard)
    var missing: [String] = []
    if let n = ordered.first.flatMap({ Int($0.shard.split(separator: "/").last ?? "") }) {
      missing = (0..<n).map { "\($0)/\(n)" }.filter { seen[$0] == nil }
    }
    missingShards = missing
    // Recordings back in manifest order: shard i holds items i, i + N, i + 2N, …
    var entries: [ValidationShard.Entry] = []
    let columns = ordered.map(\.recordings)
    for row in 0..<(columns.map(\.count).max() ?? 0) {
      for column in columns where row < column.count { entries.append(column[row]) }
    }
    perRecording = entries
    recordings = entries.count
    var names: [String] = []
    var finals: [String: [Double]] = [:], raws: [String: [Double]] = [:], sigmas: [String: [Double]] = [:]
    for entry in entries {
      for a in entry.report.anchors {
        if finals[a.name] == nil { names.append(a.name) }
        finals[a.name, default: []].append(a.positionError.final)
        sigmas[a.name, default: []].append(a.finalSigma)
        if let raw = a.rawPositionError?.final { raws[a.name, default: []].append(raw) }
      }
    }
    anchors = names.map { name in
      let e = finals[name]!, s = sigmas[name]!
      let rmsError = (e.reduce(0) { $0 + $1 * $1 } / Double(e.count)).squareRoot()
      let rmsSigma = (s.reduce(0) { $0 + $1 * $1 } / Double(s.count)).squareRoot()
      let inside = zip(e, s).filter { $0 <= 3 * $1 }.count
      return Anchor(
        name: name, finalError: ValidationReport.Statistics(e)!,
        rawFinalError: raws[name].flatMap(ValidationReport.Statistics.init),
        normalizedRMS: rmsSigma > 0 ? rmsError / rmsSigma : 0, within3Sigma: Double(inside) / Double(e.count))
    }
    let within = entries.compactMap(\.report.gps.withinAccuracy)
    gpsWithinAccuracy = within.isEmpty ? nil : within.reduce(0, +) / Double(within.count)
  }

  enum CodingKeys: String, CodingKey {
    case shards, recordings, missingShards = "missing_shards", anchors, gpsWithinAccuracy =
      "gps_within_accuracy"
    case perRecording = "per_recording"
  }
}

extension ValidationBatchSummary.Anchor {
  enum CodingKeys: String, CodingKey {
    case name, finalError = "final_error_m", rawFinalError = "raw_final_error_m", normalizedRMS =
      "normalized_rms"
    case within3Sigma = "within_3_sigma"
  }
}
