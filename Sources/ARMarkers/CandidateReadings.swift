import ARMath
import Foundation

/// A detection's candidates found and read on every core with no barrier between the steps:
/// each thresholding task's outlines, then each rule's outlines read in the rules' order, a
/// rule's reading starting as soon as its outlines are found and every earlier rule's are
/// read (so a core that finishes its outlines early reads the midpoint rule's while another
/// still traces a full-resolution window's). What is read, and in which order the readings
/// are kept, is what reading the rules one after another would give.
final class CandidateReadings: @unchecked Sendable {
  /// Outlines read in one job: few enough that a free core takes the rest (a reading costs
  /// 5-70 µs; jobs of 4 left the Swarmathon photos 3-5% faster than jobs of 8, and 2 no faster).
  static let chunk = 4

  private let lock = NSLock()
  private let queue = JobQueue()
  /// Each rule's outlines, in reading order, once found.
  private var outlines: [[[SIMD2<Double>]]?]
  /// The first rule whose outlines are not all read.
  private var reading = 0
  /// Whether rule ``reading``'s chunks are being read, their readings so far, and how many
  /// chunks are left.
  private var started = false
  private var chunks: [[DetectedMarker]] = []
  private var chunksLeft = 0
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

  /// Queues the chunks of the next rules that can be read (called with ``lock`` held): an
  /// outline about a marker an earlier rule read cleanly (exact, refined), or one an earlier rule
  /// found with the same corners, is not read again.
  private func scheduleReading() {
    while !started, reading < outlines.count, let quads = outlines[reading] {
      let fresh = quads.filter { quad in
        let centre = quad.reduce(.zero, +) / 4
        return !readings.contains { $0.hamming == 0 && $0.cornerSigma != nil && $0.encloses(centre) }
          && queued.insert(quad).inserted
      }
      guard !fresh.isEmpty else {
        reading += 1
        continue
      }
      let parts = stride(from: 0, to: fresh.count, by: Self.chunk).map {
        Array(fresh[$0..<min($0 + Self.chunk, fresh.count)])
      }
      (started, chunks, chunksLeft) = (true, Array(repeating: [], count: parts.count), parts.count)
      for (k, part) in parts.enumerated() {
        queue.add { [self] in
          let found = part.compactMap(read)
          lock.withLock {
            chunks[k] = found
            chunksLeft -= 1
            guard chunksLeft == 0 else { return }
            readings += chunks.joined()
            (started, reading) = (false, reading + 1)
            scheduleReading()
          }
        }
      }
    }
  }
}
