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
    let pids = lock.withLock {
      closed = true
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
