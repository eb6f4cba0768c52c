#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shards merged one at a time, as `arscene validate --merge` reads them: each checked as it
/// comes (`I/N` well formed, one `N` for all, a shard given twice holding the same results),
/// then dropped. Of each recording it keeps only what the statistics need (each anchor's final
/// error and σ: some 50 bytes an anchor) and where its encoded summary lies in a spill file
/// (an unlinked temporary file, gone with the process), from which ``writeRecordings(_:)``
/// streams the report's `per_recording` list in manifest order. Copies of a shard are compared
/// by a 128-bit digest of their bytes, not held. So memory does not grow with the reports'
/// size, only by those few numbers a recording.
public struct ValidationMerge: ~Copyable {
  /// `N`, and the first file that said it.
  private var total: (count: Int, file: String)?
  /// Each shard's recordings, by its index `I`: their outcomes and their encoded summaries' spans
  /// in the spill file.
  private var columns: [Int: [(outcome: ValidationBatchSummary.RecordingOutcome, span: Span)]] = [:]
  /// The first copy of each shard: its file and its JSON's digest.
  private var first: [Int: (file: String, digest: SIMD2<UInt64>)] = [:]
  /// Shards given more than once, each once, in the order met.
  private var duplicates: [String] = []
  /// The encoded recordings, in the order their shards came.
  private let spill: UnsafeMutablePointer<FILE>
  private var spillSize: Int64 = 0

  /// Where an encoded recording lies in the spill file.
  struct Span {
    var offset: Int64
    var length: Int
  }

  /// An empty merge.
  ///
  /// - Throws: ``ValidationShard/MergeError`` when no temporary file can be made (its reason
  ///   the system's).
  public init() throws(ValidationShard.MergeError) {
    guard let file = tmpfile() else {
      throw .init(description: "cannot make a temporary file: \(String(cString: strerror(errno)))")
    }
    spill = file
  }

  deinit { fclose(spill) }

  /// Adds `shard`, read from `file`, whose bytes are `json` (a rerun task writes the same bytes,
  /// so copies are compared by them); `encode` gives each recording's JSON as the report prints
  /// it.
  ///
  /// - Throws: ``ValidationShard/MergeError`` naming the files when the shard is not `I/N`,
  ///   splits a run of another `N`, or repeats a shard with different results, or when the
  ///   spill file cannot be written (its reason the system's: a full disk).
  public mutating func add(
    _ shard: ValidationShard, from file: String, json: [UInt8],
    encode: (ValidationShard.Entry) throws -> [UInt8]
  ) throws(ValidationShard.MergeError) {
    let parts = shard.shard.split(separator: "/")
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0,
      index < count
    else { throw .init(description: "\(file): shard '\(shard.shard)' is not I/N with 0 ≤ I < N") }
    if let total, total.count != count {
      throw .init(
        description:
          "\(file) is a shard of \(count) and \(total.file) one of \(total.count): they split different runs")
    }
    total = total ?? (count, file)
    let digest = Self.digest(json)
    if let earlier = first[index] {
      guard earlier.digest == digest else {
        throw .init(
          description:
            "shard \(shard.shard) is given twice with different results (\(earlier.file) and \(file)): rerun it once"
        )
      }
      if !duplicates.contains(shard.shard) { duplicates.append(shard.shard) }
      return
    }
    first[index] = (file, digest)
    var column: [(outcome: ValidationBatchSummary.RecordingOutcome, span: Span)] = []
    column.reserveCapacity(shard.recordings.count)
    for entry in shard.recordings {
      let bytes: [UInt8]
      do { bytes = try encode(entry) } catch {
        throw .init(description: "\(file): \(entry.recording): cannot encode its report: \(error)")
      }
      let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, spill) }
      guard written == bytes.count else {
        throw .init(description: "cannot write a temporary file: \(String(cString: strerror(errno)))")
      }
      column.append(
        (ValidationBatchSummary.RecordingOutcome(entry), Span(offset: spillSize, length: bytes.count)))
      spillSize += Int64(bytes.count)
    }
    columns[index] = column
  }

  /// The merged summary, but for its `per_recording` list (empty here: ``writeRecordings(_:)``
  /// streams it): statistics over the recordings in manifest order (shard `I` holds items `I`,
  /// `I + N`, …), missing and repeated shards named.
  public var summary: ValidationBatchSummary {
    let indices = columns.keys.sorted()
    let n = total?.count ?? 0
    return ValidationBatchSummary(
      columns: indices.map { ("\($0)/\(n)", columns[$0]!.map(\.outcome)) },
      missing: total == nil ? [] : (0..<n).filter { columns[$0] == nil }.map { "\($0)/\(n)" },
      duplicates: duplicates)
  }

  /// Hands `body` each recording's encoded summary in manifest order, one at a time, read back
  /// from the spill file.
  ///
  /// - Throws: ``ValidationShard/MergeError`` when the spill file cannot be read; what `body` throws.
  public func writeRecordings(_ body: ([UInt8]) throws -> Void) throws {
    fflush(spill)
    let spans = ValidationBatchSummary.manifestOrder(columns.keys.sorted().map { columns[$0]!.map(\.span) })
    let descriptor = fileno(spill)
    var buffer: [UInt8] = []
    for span in spans {
      buffer = [UInt8](repeating: 0, count: span.length)
      var done = 0
      while done < span.length {
        let got = buffer.withUnsafeMutableBytes { raw in
          pread(descriptor, raw.baseAddress! + done, span.length - done, off_t(span.offset) + off_t(done))
        }
        guard got > 0 else {
          let reason = got == 0 ? "it ended early" : String(cString: strerror(errno))
          throw ValidationShard.MergeError(description: "cannot read a temporary file back: \(reason)")
        }
        done += got
      }
      try body(buffer)
    }
  }

  /// Two FNV-1a hashes of `bytes` from different offsets: 128 bits, for telling copies apart.
  static func digest(_ bytes: [UInt8]) -> SIMD2<UInt64> {
    var hash = SIMD2<UInt64>(0xcbf2_9ce4_8422_2325, 0x6c62_272e_07bb_0142)
    let prime: UInt64 = 0x0000_0100_0000_01B3
    for byte in bytes {
      hash ^= SIMD2(repeating: UInt64(byte))
      hash &*= SIMD2(repeating: prime)
    }
    return hash
  }
}
