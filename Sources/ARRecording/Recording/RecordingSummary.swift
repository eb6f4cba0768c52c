/// What a recording holds, as `arscene recording info` prints it: its streams, their counts,
/// spans, rates and gaps, and what was skipped reading it.
public struct RecordingSummary: Encodable, Sendable {
  /// The layout read (a ``RecordingFormat``'s raw value).
  public var format: String
  /// The recording format's version.
  public var version: Int
  /// Where the records came from (the header's `source`).
  public var source: String
  /// What the record times count (`time_base`).
  public var timeBase: RecordingTimeBase
  /// First and last record times, seconds; nil for an empty recording.
  public var start: Double?, end: Double?
  /// `end − start`, seconds.
  public var duration: Double
  /// Records read.
  public var records: Int
  /// Records skipped (invalid in their layout, or bad with `--lenient`), and why (the first 100).
  public var skipped: Int
  /// Why records were skipped, the first 100.
  public var warnings: [String]
  /// One entry a stream present, by name.
  public var streams: [String: StreamSummary]

  /// One stream's numbers.
  public struct StreamSummary: Encodable, Sendable {
    /// Records of the stream.
    public var count: Int
    /// Seconds.
    public var start: Double, end: Double
    /// Records per second over the stream's span (`(count − 1) / (end − start)`); 0 for one record.
    public var rateHz: Double
    /// The median time between records, seconds.
    public var medianInterval: Double
    /// Intervals longer than three median intervals: how many, their total, and the longest ten.
    public var gapCount: Int
    /// The gaps' total, seconds.
    public var gapSeconds: Double
    /// The ten longest gaps, longest first.
    public var longestGaps: [Gap]
  }

  /// A stretch without records of a stream.
  public struct Gap: Encodable, Sendable {
    /// The records either side, seconds.
    public var from: Double, to: Double
    /// `to − from`.
    public var seconds: Double
  }

  /// Reads the whole of `reader` (streamed: the memory is eight bytes a record, for the median).
  public init(_ reader: RecordingReader) throws(RecordingError) {
    format = reader.format.rawValue
    version = reader.header.version
    source = reader.header.source
    timeBase = reader.header.timeBase
    var counts: [RecordingStream: Int] = [:], firsts: [RecordingStream: Double] = [:]
    var lasts: [RecordingStream: Double] = [:], intervals: [RecordingStream: [Double]] = [:]
    // Gaps are judged against the median, known only at the end: keep each stream's longest
    // intervals (at least 10_000) with their times.
    var longIntervals: [RecordingStream: [Gap]] = [:]
    var count = 0
    try reader.forEach { record throws(RecordingError) in
      count += 1
      let s = record.stream, t = record.time
      if let last = lasts[s] {
        let dt = t - last
        intervals[s, default: []].append(dt)
        longIntervals[s, default: []].append(Gap(from: last, to: t, seconds: dt))
        if longIntervals[s]!.count > 20_000 {
          longIntervals[s]!.sort { $0.seconds > $1.seconds }
          longIntervals[s]!.removeLast(10_000)
        }
      } else {
        firsts[s] = t
      }
      lasts[s] = t
      counts[s, default: 0] += 1
    }
    records = count
    skipped = reader.skipped
    warnings = reader.warnings
    start = firsts.values.min()
    end = lasts.values.max()
    duration = (end ?? 0) - (start ?? 0)
    var streams: [String: StreamSummary] = [:]
    for (s, n) in counts {
      let (first, last) = (firsts[s]!, lasts[s]!)
      var sorted = intervals[s] ?? []
      sorted.sort()
      let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
      let gaps = (longIntervals[s] ?? []).filter { $0.seconds > 3 * median }.sorted {
        $0.seconds > $1.seconds
      }
      streams[s.rawValue] = StreamSummary(
        count: n, start: first, end: last, rateHz: last > first ? Double(n - 1) / (last - first) : 0,
        medianInterval: median, gapCount: gaps.count, gapSeconds: gaps.reduce(0) { $0 + $1.seconds },
        longestGaps: Array(gaps.prefix(10)))
    }
    self.streams = streams
  }

  enum CodingKeys: String, CodingKey {
    case format, version, source, timeBase = "time_base", start, end, duration, records, skipped, warnings,
      streams
  }
}

extension RecordingSummary.StreamSummary {
  enum CodingKeys: String, CodingKey {
    case count, start, end, rateHz = "rate_hz", medianInterval = "median_interval", gapCount = "gap_count"
    case gapSeconds = "gap_seconds", longestGaps = "longest_gaps"
  }
}
