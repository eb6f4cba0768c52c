import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The external programs running for this process right now (ffmpeg encoding or decoding a
/// video), so that a process stopped early, by a time limit or a signal, stops them too instead
/// of leaving them running after it is gone.
package enum ChildProcesses {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var running: Set<Int32> = []

  /// Set by ``stopAll()``: a child started after it (by a thread still at work while the process
  /// stops) is stopped at once.
  nonisolated(unsafe) private static var closed = false
  /// Children being started now: between a child's start and its ``add(_:)``, a stop must wait,
  /// or the process could end with that child unknown and still running.
  nonisolated(unsafe) private static var starting = 0
  /// How long a stop waits for children being started, seconds.
  private static let startingWait = 2.0

  /// Starts a child with `run` (which returns its pid) and notes it, as one step a stop cannot
  /// fall between: ``stopAll()`` waits for it, and a child started after the stop began is
  /// stopped at once.
  package static func start(_ run: () throws -> Int32) rethrows {
    lock.withLock { starting += 1 }
    defer { lock.withLock { starting -= 1 } }
    add(try run())
  }

  /// Notes the child `pid` as running; stops it at once when the process is stopping.
  package static func add(_ pid: Int32) {
    guard pid > 0 else { return }
    let admitted = lock.withLock { closed ? false : running.insert(pid).inserted || true }
    guard !admitted else { return }
    kill(pid, SIGKILL)
    waitpid(pid, nil, 0)
  }

  /// Notes that the child `pid` has been waited for.
  package static func remove(_ pid: Int32) {
    lock.withLock { _ = running.remove(pid) }
  }

  /// Stops every child still running: SIGTERM, then SIGKILL for any still there a second later;
  /// what a process calls just before it stops early. A child started after it is stopped at once.
  package static func stopAll() {
    lock.withLock { closed = true }
    // A child being started is noted (or, now, stopped) within a moment.
    let patience = Date(timeIntervalSinceNow: startingWait)
    while lock.withLock({ starting > 0 }) && Date() < patience { usleep(1_000) }
    let pids = lock.withLock {
      defer { running.removeAll() }
      return running
    }
    guard !pids.isEmpty else { return }
    for pid in pids { kill(pid, SIGTERM) }
    let deadline = Date(timeIntervalSinceNow: 1)
    var left = pids
    while !left.isEmpty && Date() < deadline {
      left = left.filter { waitpid($0, nil, WNOHANG) == 0 }
      if !left.isEmpty { usleep(10_000) }
    }
    for pid in left {
      kill(pid, SIGKILL)
      waitpid(pid, nil, 0)  // gone before the caller goes on (or reaped already: ECHILD)
    }
  }
}
