import ARMath
import Foundation

/// A detection's candidates found and read on every core with no barrier between the steps:
/// each thresholding task's outlines, then each rule's outlines read in the rules' order, a
/// rule's reading starting as soon as its outlines are found and every earlier rule's are
/// read (so a core that finishes its outlines early reads the midpoint rule's while another
/// still traces a full-resolution window's). What is read, and in which order the readings
/// are kept, is what reading the rules one after another would give.
///
/// The next rule's outlines are read ahead once the last chunk of the rule being read has
/// started: a core that would wait for another's last chunk reads instead. They are chosen
/// with the readings known then, a few short of the rule's whole, so a few may turn out to
/// be about a marker that rule read cleanly: those readings are dropped when the rule
/// finishes, as reading the rules in turn would never have made them.
final class CandidateReadings: @unchecked Sendable {
  /// Outlines read in one job: few enough that a free core takes the rest (a reading costs
  /// 5-70 µs; jobs of 4 left the Swarmathon photos 3-5% faster than jobs of 8, and 2 no faster).
  static let chunk = 4

  /// One rule's outlines being read, in chunks: each chunk's readings with the outlines read.
  /// (Changed only with the readings' ``lock`` held.)
  private final class Batch: @unchecked Sendable {
    let rule: Int
    var results: [[(outline: [SIMD2<Double>], marker: DetectedMarker)]?]
    /// Chunks not yet taken by a core, and not yet finished.
    var unstarted: Int, left: Int

    init(rule: Int, chunks: Int) {
      self.rule = rule
      results = Array(repeating: nil, count: chunks)
      (unstarted, left) = (chunks, chunks)
    }
  }

  private let lock = NSLock()
  private let queue = JobQueue()
  /// Each rule's outlines, in reading order, once found.
  private var outlines: [[[SIMD2<Double>]]?]
  /// The first rule whose outlines are not all read.
  private var reading = 0
  /// Rule ``reading``'s batch while it is read, and the next rule's when read ahead.
  private var current: Batch?, ahead: Batch?
  /// The readings of the rules before ``reading``, in order.
  private(set) var readings: [DetectedMarker] = []
  /// Every outline queued for reading: another rule's outline with the very same corners (2-4
  /// a competition-field photo) reads the same, so it is not read again.
  private var queued: Set<[SIMD2<Double>]> = []
  private let read: @Sendable ([SIMD2<Double>]) -> DetectedMarker?

  /// Finds and reads the candidates: `tasks[t]` finds the outlines of the rules `rulesOf[t]`
  /// (indices in reading order, one array each), tasks started in `startOrder`; `read`
  /// reads one outline.
  init(
    tasks: [@Sendable () -> [[[SIMD2<Double>]]]], rulesOf: [[Int]], startOrder: [Int],
    read: @escaping @Sendable ([SIMD2<Double>]) -> DetectedMarker?
  ) {
    outlines = Array(repeating: nil, count: rulesOf.joined().count)
    self.read = read
    for t in startOrder {
      let (find, rules) = (tasks[t], rulesOf[t])
      queue.add { [self] in
        let found = find()
        lock.withLock {
          for (rule, quads) in zip(rules, found) { outlines[rule] = quads }
          scheduleReading()
        }
      }
    }
    queue.run(threads: ProcessInfo.processInfo.activeProcessorCount)
  }

  /// Whether `quad` is about a marker one of `known` read cleanly (exact, refined).
  private static func isAboutCleanReading(_ quad: [SIMD2<Double>], in known: [DetectedMarker]) -> Bool {
    let centre = quad.reduce(.zero, +) / 4
    return known.contains { $0.hamming == 0 && $0.cornerSigma != nil && $0.encloses(centre) }
  }

  /// `quads` less those about a marker `known` holds read cleanly, or queued before with the
  /// same corners (these are marked queued).
  private func fresh(_ quads: [[SIMD2<Double>]], known: [DetectedMarker]) -> [[SIMD2<Double>]] {
    quads.filter { !Self.isAboutCleanReading($0, in: known) && queued.insert($0).inserted }
  }

  /// Reads the rules that can be read next (called with ``lock`` held): an outline about a
  /// marker an earlier rule read cleanly, or one an earlier rule found with the same corners,
  /// is not read again. A rule read ahead is taken up where it stands.
  private func scheduleReading() {
    while current == nil, reading < outlines.count, let quads = outlines[reading] {
      if let early = ahead, early.rule == reading {
        (current, ahead) = (early, nil)
        if early.left == 0 { finish(early) }
        continue
      }
      let chosen = fresh(quads, known: readings)
      if chosen.isEmpty {
        reading += 1
      } else {
        current = launch(rule: reading, chosen)
      }
    }
    scheduleAhead()
  }

  /// Starts reading the next rule's outlines ahead (called with ``lock`` held) once every
  /// chunk of the rule being read has been taken, chosen with the readings known by then.
  private func scheduleAhead() {
    guard ahead == nil, let current, current.unstarted == 0, current.rule + 1 < outlines.count,
      let quads = outlines[current.rule + 1]
    else { return }
    let known = readings + current.results.compactMap { $0 }.joined().map(\.marker)
    let chosen = fresh(quads, known: known)
    // With none chosen now, none would be chosen with more readings known either.
    guard !chosen.isEmpty else { return }
    ahead = launch(rule: current.rule + 1, chosen)
  }

  /// Queues `quads` (rule `rule`'s chosen outlines) in chunks; returns their batch.
  private func launch(rule: Int, _ quads: [[SIMD2<Double>]]) -> Batch {
    let parts = stride(from: 0, to: quads.count, by: Self.chunk).map {
      Array(quads[$0..<min($0 + Self.chunk, quads.count)])
    }
    let batch = Batch(rule: rule, chunks: parts.count)
    for (k, part) in parts.enumerated() {
      queue.add { [self] in
        lock.withLock {
          batch.unstarted -= 1
          scheduleAhead()
        }
        let found = part.compactMap { quad in read(quad).map { (quad, $0) } }
        lock.withLock {
          batch.results[k] = found
          batch.left -= 1
          guard batch.left == 0, batch === current else { return }
          finish(batch)
          scheduleReading()
        }
      }
    }
    return batch
  }

  /// Keeps rule ``reading``'s readings, its batch all read (called with ``lock`` held), and
  /// moves on to the next rule. A batch read ahead drops the readings of outlines about a
  /// marker its rule's predecessor read cleanly after the outlines were chosen: the rule read
  /// in turn would not have read them.
  private func finish(_ batch: Batch) {
    let read = batch.results.compactMap { $0 }.joined()
    readings += read.filter { !Self.isAboutCleanReading($0.outline, in: readings) }.map(\.marker)
    (current, reading) = (nil, reading + 1)
  }
}
