import ARMath
import Foundation
import Testing

/// `JobQueue`: every job runs once, jobs added by running jobs included, and `run` returns
/// only when none is left.
@Suite("Job queue")
struct JobQueueTests {
  @Test("a tree of jobs each adding two more: every job once, none after run returns", arguments: [1, 2, 4])
  func jobsAddingJobs(threads: Int) {
    let queue = JobQueue(), tally = BandedWorkTests.Tally()
    // Job k adds jobs 2k + 1 and 2k + 2 while it runs, below 127: a binary tree of 127 jobs,
    // its leaves added last, while other threads may be waiting for work.
    @Sendable func job(_ k: Int) {
      tally.begin(k)
      Thread.sleep(forTimeInterval: 0.0001)
      for child in [2 * k + 1, 2 * k + 2] where child < 127 { queue.add { job(child) } }
      tally.end()
    }
    queue.add { job(0) }
    queue.run(threads: threads)
    #expect(tally.seen.sorted() == Array(0..<127))
    #expect(tally.running == 0)
    #expect(tally.mostAtOnce <= threads)
  }

  @Test("an empty queue returns at once")
  func empty() {
    JobQueue().run(threads: 2)
  }
}

extension JobQueueTests {
  /// An owner of a queue whose jobs capture it, as a detection's candidate reader does.
  final class Owner: @unchecked Sendable {
    let queue = JobQueue()
    var ran = 0
    func start() {
      queue.add { [self] in ran += 1 }
      queue.run(threads: 2)
    }
  }

  @Test("jobs are let go once run: an owner its jobs capture is freed")
  func jobsLetGo() {
    weak var freed: Owner?
    do {
      let owner = Owner()
      owner.start()
      #expect(owner.ran == 1)
      freed = owner
    }
    #expect(freed == nil)
  }
}
