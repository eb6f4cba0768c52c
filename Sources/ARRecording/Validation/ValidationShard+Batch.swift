import ARMath

extension ValidationShard {
  /// The shard `selection` takes of `recordings` (a manifest's paths, in its order), each
  /// recording's report made by `validate` and kept as its summary.
  ///
  /// Recordings run on `threads` workers, each taking the next one not yet taken; `validate` is
  /// told whether it may read its recording on threads of its own (when there are more workers
  /// than recordings). `starting` hears of each recording (its index in `recordings`) as its work
  /// starts. The first failure in `recordings`' order is the one thrown, as a run one by one
  /// would throw it.
  package static func validating(
    _ recordings: [String], selection: ShardSelection, threads: Int,
    starting: @Sendable (_ index: Int, _ path: String) -> Void = { _, _ in },
    validate: @Sendable (_ path: String, _ parallel: Bool) throws -> ValidationReport
  ) throws -> ValidationShard {
    let chosen = recordings.indices.filter { selection.contains($0) }
    let spare = threads > chosen.count
    let results = LockedResults<Entry>(count: chosen.count)
    forEachBand(chosen.count, threads: threads) { k in
      let (i, path) = (chosen[k], recordings[chosen[k]])
      starting(i, path)
      results.set(k) { Entry(recording: path, report: try validate(path, spare).summary) }
    }
    return ValidationShard(shard: selection.description, recordings: try results.inOrder())
  }
}
