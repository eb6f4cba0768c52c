/// Shards merged one at a time, as `arscene validate --merge` reads them: each checked as it
/// comes (`I/N` well formed, one `N` for all, a shard given twice holding the same results) and
/// its recordings kept while the rest of it is dropped; copies of a shard are compared by a
/// 128-bit digest of their bytes, not held. Its memory is the merged report's recordings (which
/// the report prints) and a digest a shard.
public struct ValidationMerge: Sendable {
  /// `N`, and the first file that said it.
  private var total: (count: Int, file: String)?
  /// Each shard's recordings, by its index `I`.
  private var columns: [Int: [ValidationShard.Entry]] = [:]
  /// The first copy of each shard: its file and its JSON's digest.
  private var first: [Int: (file: String, digest: SIMD2<UInt64>)] = [:]
  /// Shards given more than once, each once, in the order met.
  private var duplicates: [String] = []

  /// An empty merge.
  public init() {}

  /// Adds `shard`, read from `file`, whose bytes are `json` (a rerun task writes the same bytes,
  /// so copies are compared by them).
  ///
  /// - Throws: ``ValidationShard/MergeError`` naming the files when the shard is not `I/N`,
  ///   splits a run of another `N`, or repeats a shard with different results.
  public mutating func add(
    _ shard: ValidationShard, from file: String, json: [UInt8]
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
    columns[index] = shard.recordings
  }

  /// The merged summary: recordings back in manifest order (shard `I` holds items `I`, `I + N`,
  /// …), missing and repeated shards named.
  public var summary: ValidationBatchSummary {
    let indices = columns.keys.sorted()
    let n = total?.count ?? 0
    return ValidationBatchSummary(
      columns: indices.map { ("\($0)/\(n)", columns[$0]!) },
      missing: total == nil ? [] : (0..<n).filter { columns[$0] == nil }.map { "\($0)/\(n)" },
      duplicates: duplicates)
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
