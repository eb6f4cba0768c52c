import Foundation

extension ValidationShard {
  /// Why shards cannot be merged: they split different runs, or one shard's copies disagree.
  public struct MergeError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the shards.
    public var description: String
  }

  /// Checks that `shards` can be merged: every `I/N` well formed with one `N` for all, and any
  /// shard given twice (a rerun task's) holding the same results both times, compared by their
  /// JSON (`encode`: the one encoder the command writes with).
  public static func checkMerge(
    _ shards: [(file: String, shard: ValidationShard)], encode: (ValidationShard) throws -> [UInt8]
  ) throws {
    var total: (count: Int, file: String)?
    var first: [String: (file: String, bytes: [UInt8])] = [:]
    for (file, shard) in shards {
      let parts = shard.shard.split(separator: "/")
      guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count > 0, index >= 0,
        index < count
      else { throw MergeError(description: "\(file): shard '\(shard.shard)' is not I/N with 0 ≤ I < N") }
      if let total, total.count != count {
        throw MergeError(
          description:
            "\(file) is a shard of \(count) and \(total.file) one of \(total.count): they split different runs"
        )
      }
      total = total ?? (count, file)
      let bytes = try encode(shard)
      if let earlier = first[shard.shard], earlier.bytes != bytes {
        throw MergeError(
          description:
            "shard \(shard.shard) is given twice with different results (\(earlier.file) and \(file)): rerun it once"
        )
      }
      if first[shard.shard] == nil { first[shard.shard] = (file, bytes) }
    }
  }
}
