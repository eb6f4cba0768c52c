extension ValidationShard {
  /// Why shards cannot be merged: they split different runs, or one shard's copies disagree.
  public struct MergeError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the shards.
    public var description: String
  }
}
