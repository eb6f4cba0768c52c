import Dispatch
import Foundation

/// Jobs run on a fixed number of threads, first added first taken, where a job may add more:
/// work whose later steps become possible as earlier ones finish (one step's results read
/// while another's are still being found) without a barrier between the steps.
package final class JobQueue: @unchecked Sendable {
  private let condition = NSCondition()
  /// The jobs added, each let go once taken: a job may hold its queue's owner, which holds the
  /// queue (a cycle that leaked every detection's image until jobs were let go).
  private var jobs: [(@Sendable () -> Void)?] = []
  /// The first job not yet taken.
  private var next = 0
  /// Jobs taken and not yet finished: each may still add more.
  private var running = 0

  package init() {}

  /// Adds `job`, from any thread (from a running job too).
  package func add(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Runs the jobs on `threads` threads (the calling thread among them) until none is left
  /// and none is running.
  package func run(threads: Int) {
    DispatchQueue.concurrentPerform(iterations: max(1, threads)) { _ in
      while let job = take() {
        job()
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
      }
    }
  }

  /// The next job, once there is one; nil when none is left and none running could add one.
  private func take() -> (@Sendable () -> Void)? {
    condition.lock()
    defer { condition.unlock() }
    while next == jobs.count && running > 0 { condition.wait() }
    guard next < jobs.count else { return nil }
    let job = jobs[next]
    jobs[next] = nil
    next += 1
    running += 1
    return job
  }
}
