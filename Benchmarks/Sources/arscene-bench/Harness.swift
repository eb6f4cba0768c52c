import Foundation

/// One benchmark row: a workload timed for ARScene and for its peer library, side by side.
struct Row: Codable {
  var workload: String
  var ours_s: Double
  var peer: String
  var peer_s: Double
  var ratio: Double

  /// Times that were not measured (no peer, or a workload skipped) are `null`, as JSON has no NaN.
  func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(workload, forKey: .workload)
    try c.encode(peer, forKey: .peer)
    for (key, value) in [(CodingKeys.ours_s, ours_s), (.peer_s, peer_s), (.ratio, ratio)] {
      if value.isFinite { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
    }
  }
}

/// Whether `workload` is timed in this run: ARSCENE_BENCH_ONLY=text (for profiling) times only
/// the workloads whose name contains it.
func selected(_ workload: String) -> Bool {
  ProcessInfo.processInfo.environment["ARSCENE_BENCH_ONLY"].map { workload.contains($0) } ?? true
}

/// Ours alone, the fastest of `rounds` after a warm-up: a stage of the row above it, or a
/// workload no peer does. Its peer columns are empty.
func oursOnly(_ workload: String, rounds: Int, _ body: () -> Void) -> Row {
  guard selected(workload) else {
    return Row(workload: workload + " (skipped)", ours_s: .nan, peer: "-", peer_s: .nan, ratio: .nan)
  }
  let rounds = ProcessInfo.processInfo.environment["ARSCENE_BENCH_ROUNDS"].flatMap { Int($0) } ?? rounds
  _ = seconds(body)
  let best = (0..<rounds).map { _ in seconds(body) }.min()!
  return Row(workload: workload, ours_s: best, peer: "-", peer_s: .nan, ratio: .nan)
}

/// Times `ours` and `peer` alternately, `rounds` times each, and keeps each side's fastest run.
/// Alternating spreads slow phases of a shared machine over both sides; the minimum is the run
/// least disturbed by them (noise only ever adds time), as Python's timeit advises. With a
/// `budget` (seconds), quick workloads get more rounds, up to `maximumRounds`, as many as the
/// warm-up pair says fit in it: five rounds of a 10 ms frame left its ratio 0.29–0.37 from run
/// to run.
func compare(
  _ workload: String, peer: String, rounds: Int = 15, budget: Double? = nil, maximumRounds: Int = 30,
  ours: () -> Void, peerRun: () -> Void
) -> Row {
  guard selected(workload) else {
    return Row(workload: workload + " (skipped)", ours_s: .nan, peer: peer, peer_s: .nan, ratio: .nan)
  }
  // ARSCENE_BENCH_OURS_ONLY=1: time ours alone (for profiling; the peer column is NaN).
  let timesPeer = ProcessInfo.processInfo.environment["ARSCENE_BENCH_OURS_ONLY"] == nil
  // Warm caches and page in buffers once before timing.
  let warmUp = seconds(ours) + (timesPeer ? seconds(peerRun) : 0)
  var rounds = rounds
  if let budget { rounds = Swift.max(rounds, Swift.min(maximumRounds, Int(budget / warmUp))) }
  // ARSCENE_BENCH_ROUNDS=n: more rounds, so a profile of one workload is not its set-up.
  rounds = ProcessInfo.processInfo.environment["ARSCENE_BENCH_ROUNDS"].flatMap { Int($0) } ?? rounds
  var oursTimes: [Double] = [], peerTimes: [Double] = []
  var oursCPU: [Double] = [], peerCPU: [Double] = []
  for _ in 0..<rounds {
    var cpu = processCPUSeconds()
    oursTimes.append(seconds(ours))
    oursCPU.append(processCPUSeconds() - cpu)
    cpu = processCPUSeconds()
    if timesPeer {
      peerTimes.append(seconds(peerRun))
      peerCPU.append(processCPUSeconds() - cpu)
    }
  }
  // ARSCENE_BENCH_TRACE=1: every round's wall-clock and CPU times (all threads) on stderr, in
  // order: a noisy phase shows in both sides' rounds, contention between threads as CPU time
  // above one thread's.
  if ProcessInfo.processInfo.environment["ARSCENE_BENCH_TRACE"] != nil {
    let list = { (times: [Double]) in times.map { String(format: "%.2f", $0 * 1000) }.joined(separator: " ") }
    var trace = "\(workload)\n  ours ms: \(list(oursTimes))\n  ours cpu ms: \(list(oursCPU))\n"
    if timesPeer { trace += "  peer ms: \(list(peerTimes))\n  peer cpu ms: \(list(peerCPU))\n" }
    FileHandle.standardError.write(Data(trace.utf8))
  }
  let o = oursTimes.min()!, p = peerTimes.min() ?? .nan
  return Row(workload: workload, ours_s: o, peer: peer, peer_s: p, ratio: o / p)
}

/// CPU time the process has used so far, all threads, in seconds.
func processCPUSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

func seconds(_ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  let d = clock.measure(body)
  return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

/// Keeps a result alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func printTable(_ rows: [Row]) {
  let header = ["workload", "ours", "peer", "peer time", "ratio (ours/peer)"]
  let cells = rows.map {
    [
      $0.workload, milliseconds($0.ours_s), $0.peer, milliseconds($0.peer_s),
      String(format: "%.2f", $0.ratio),
    ]
  }
  let widths = (0..<header.count).map { c in ([header] + cells).map { $0[c].count }.max()! }
  func line(_ r: [String]) -> String {
    r.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
      separator: "  ")
  }
  print(line(header))
  print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
  for r in cells { print(line(r)) }
}

func milliseconds(_ s: Double) -> String { String(format: "%.2f ms", s * 1e3) }

func printJSON(_ rows: [Row]) {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
  print(String(decoding: try! encoder.encode(rows), as: UTF8.self))
}
