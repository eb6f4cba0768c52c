import ARRecording
import Testing

/// A manifest's shard validated on several workers: the shard's recordings only, in the
/// manifest's order whatever the threads, the first failure in that order thrown.
@Suite("Validation batches")
struct ValidationBatchTests {
  struct Failure: Error, Equatable { var path: String }

  @Test("shard 1/3 of seven recordings on 4 threads: recordings 1 and 4, in order, as summaries")
  func shardInOrder() throws {
    let report = try ValidationWithoutTruthTests.report(seed: 3)
    let paths = (0..<7).map { "walk\($0).jsonl" }
    let selection = ShardSelection(index: 1, count: 3)
    let shard = try ValidationShard.validating(paths, selection: selection, threads: 4) { _, _ in report }
    #expect(shard.shard == "1/3")
    #expect(shard.recordings.map(\.recording) == ["walk1.jsonl", "walk4.jsonl"])
    #expect(shard.recordings.allSatisfy { $0.report.timeline.isEmpty && $0.report.tracks.fused.isEmpty })
  }

  @Test(
    "the first failure in the manifest's order is the one thrown, on any number of threads",
    arguments: [1, 3, 8])
  func firstFailureInOrder(threads: Int) throws {
    let report = try ValidationWithoutTruthTests.report(seed: 5)
    let paths = (0..<6).map { "walk\($0).jsonl" }
    #expect(throws: Failure(path: "walk2.jsonl")) {
      try ValidationShard.validating(paths, selection: .whole, threads: threads) { path, _ in
        if path == "walk2.jsonl" || path == "walk5.jsonl" { throw Failure(path: path) }
        return report
      }
    }
  }
}
