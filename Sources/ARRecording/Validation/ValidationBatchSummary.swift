import Foundation

/// Many recordings' validations in one: what `arscene validate --merge` prints. For each anchor
/// (by name), its final errors across recordings and how honest the claimed σ was across them.
public struct ValidationBatchSummary: Codable, Sendable {
  /// The shards merged, and the recordings they held.
  public var shards: [String]
  /// The recordings merged (each once).
  public var recordings: Int
  /// Recordings whose shard appears twice are counted once; missing shards are named.
  public var missingShards: [String]
  /// Shards given more than once (a task rerun by its scheduler), each named once; their copies
  /// must hold the same results (``ValidationMerge``).
  public var duplicateShards: [String] = []
  /// One entry an anchor name, across the recordings that have it.
  public var anchors: [Anchor]
  /// The mean, over recordings with truth, of the fraction of fixes within their accuracy.
  public var gpsWithinAccuracy: Double?
  /// Every recording's summary, in manifest order.
  public var perRecording: [ValidationShard.Entry]

  /// An anchor across recordings.
  public struct Anchor: Codable, Sendable {
    /// The anchor's name in the scene.
    public var name: String
    /// The fused placement's error at each recording's end, and the raw placement's.
    public var finalError: ValidationReport.Statistics
    /// The latest-fix-and-compass placement's error at each recording's end; nil without compass
    /// headings.
    public var rawFinalError: ValidationReport.Statistics?
    /// RMS of the final errors over RMS of the final claimed σ: 1 when honest.
    public var normalizedRMS: Double
    /// The fraction of recordings whose final error was within 3σ.
    public var within3Sigma: Double
  }

  /// Combines shards (each shard once; recordings in the order of their shard's index), as
  /// ``ValidationMerge`` does without its checks.
  public init(_ shards: [ValidationShard]) {
    var seen: [String: ValidationShard] = [:]
    var duplicates: [String] = []
    for shard in shards {
      if seen[shard.shard] == nil {
        seen[shard.shard] = shard
      } else if !duplicates.contains(shard.shard) {
        duplicates.append(shard.shard)
      }
    }
    let ordered = seen.values.sorted { a, b in
      let (x, y) = (a.shard.split(separator: "/"), b.shard.split(separator: "/"))
      return (Int(x.first ?? "") ?? 0) < (Int(y.first ?? "") ?? 0)
    }
    var missing: [String] = []
    if let n = ordered.first.flatMap({ Int($0.shard.split(separator: "/").last ?? "") }) {
      missing = (0..<n).map { "\($0)/\(n)" }.filter { seen[$0] == nil }
    }
    self.init(
      columns: ordered.map { ($0.shard, $0.recordings.map(RecordingOutcome.init)) }, missing: missing,
      duplicates: duplicates)
    perRecording = Self.manifestOrder(ordered.map(\.recordings))
  }

  /// The summary of shards `columns` (each `I/N` with its recordings' outcomes, by `I`), with
  /// the shards `missing` and those given more than once (`duplicates`) named; ``perRecording``
  /// is left empty (``ValidationMerge`` streams it).
  init(
    columns: [(shard: String, outcomes: [RecordingOutcome])], missing: [String], duplicates: [String]
  ) {
    duplicateShards = duplicates
    missingShards = missing
    self.shards = columns.map(\.shard)
    perRecording = []
    let outcomes = Self.manifestOrder(columns.map(\.outcomes))
    recordings = outcomes.count
    var names: [String] = []
    var finals: [String: [Double]] = [:], raws: [String: [Double]] = [:], sigmas: [String: [Double]] = [:]
    for outcome in outcomes {
      for a in outcome.anchors {
        if finals[a.name] == nil { names.append(a.name) }
        finals[a.name, default: []].append(a.final)
        sigmas[a.name, default: []].append(a.sigma)
        if let raw = a.raw { raws[a.name, default: []].append(raw) }
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
    let within = outcomes.compactMap(\.gpsWithinAccuracy)
    gpsWithinAccuracy = within.isEmpty ? nil : within.reduce(0, +) / Double(within.count)
  }

  /// Shards' items back in manifest order: shard i of N holds items i, i + N, i + 2N, …
  static func manifestOrder<T>(_ columns: [[T]]) -> [T] {
    var items: [T] = []
    for row in 0..<(columns.map(\.count).max() ?? 0) {
      for column in columns where row < column.count { items.append(column[row]) }
    }
    return items
  }

  /// What the summary's statistics need of one recording's report: each anchor's final error,
  /// final σ and raw final error, and the fraction of fixes within their accuracy.
  struct RecordingOutcome: Sendable {
    /// The anchors with an error (a recording with truth), in the report's order.
    var anchors: [(name: String, final: Double, sigma: Double, raw: Double?)]
    var gpsWithinAccuracy: Double?

    init(_ entry: ValidationShard.Entry) {
      // Errors need truth: anchors of recordings without it have none to combine.
      anchors = entry.report.anchors.compactMap { a in
        guard let final = a.positionError?.final, let sigma = a.finalSigma else { return nil }
        return (a.name, final, sigma, a.rawPositionError?.final)
      }
      gpsWithinAccuracy = entry.report.gps.withinAccuracy
    }
  }

  enum CodingKeys: String, CodingKey {
    case shards, recordings, missingShards = "missing_shards", duplicateShards = "duplicate_shards", anchors,
      gpsWithinAccuracy = "gps_within_accuracy"
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
