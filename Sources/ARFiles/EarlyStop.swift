import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a command-line process does when it must stop before its work is done: on SIGTERM,
/// SIGINT or SIGHUP (a scheduler's cancel, Ctrl-C, a closed terminal) or at a time limit, every
/// temporary file being written is removed and every child program stopped, so that nothing
/// half-written and no orphaned ffmpeg is left behind.
package enum EarlyStop {
  /// The signals that stop the process cleanly.
  package static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// Whether a stop has begun (a signal or a time limit): the main thread must then not end the
  /// process on its own, for its work fails as the children stop (ffmpeg's pipe closes), and its
  /// exit would race the stop's own (exit status, message) and win on a loaded machine.
  package static var isStopping: Bool { stopLock.withLock { stopping } }

  /// Marks the stop as begun; `false` when another thread began one first (it alone ends the
  /// process).
  package static func begin() -> Bool {
    stopLock.withLock {
      defer { stopping = true }
      return !stopping
    }
  }

  /// Waits for the process to end when a stop has begun; returns at once otherwise. Call before
  /// the main thread reports a failure or exits.
  package static func parkIfStopping() {
    guard isStopping else { return }
    while true { pause() }
  }

  /// Removes the temporary files and stops the children, for good: no temporary file or child
  /// starts after it (the process is ending). Safe to call from any thread.
  package static func cleanUp() {
    // Children first: ffmpeg, stopped, finishes the file it writes (it traps SIGTERM to write
    // the trailer), which must then be removed, not the other way round.
    ChildProcesses.stopAll()
    InFlightFiles.removeAll()
  }

  /// Installs the handling of ``signals``, and ignores SIGPIPE (a reader that went away is an
  /// error on the write, reported as such, never a silent death). Call first thing in `main`.
  ///
  /// A signal's handler only writes its number to a pipe (all a handler may safely do); a thread
  /// of its own reads it, says why, cleans up, then lets the process die of the same signal so
  /// the parent sees why. Handlers, unlike a blocked mask, do not pass to child programs: ffmpeg
  /// starts with the default actions, and SIGTERM stops it at once.
  ///
  /// - Parameter message: Called with the signal's name before cleaning up (to say why).
  package static func install(message: @escaping @Sendable (String) -> Void) {
    signal(SIGPIPE, SIG_IGN)
    // A parent may have started us with these signals blocked (Foundation's `Process` passes its
    // thread's mask on): unblocked here, before any other thread starts, for every thread.
    var set = sigset_t()
    sigemptyset(&set)
    for s in signals { sigaddset(&set, s) }
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    earlyStopPipe = ends[1]
    let reading = ends[0]
    Thread.detachNewThread {
      var number: UInt8 = 0
      while read(reading, &number, 1) != 1 {}
      let received = Int32(number)
      guard begin() else { while true { pause() } }  // the time limit is ending the process
      message(name(of: received))
      cleanUp()
      signal(received, SIG_DFL)
      var one = sigset_t()
      sigemptyset(&one)
      sigaddset(&one, received)
      pthread_sigmask(SIG_UNBLOCK, &one, nil)
      raise(received)
      exit(128 + received)  // if the default action did not end the process
    }
    for s in signals {
      signal(s) { received in
        var number = UInt8(truncatingIfNeeded: received)
        _ = write(earlyStopPipe, &number, 1)
      }
    }
  }

  private static func name(of signal: Int32) -> String {
    switch signal {
    case SIGTERM: "SIGTERM"
    case SIGINT: "SIGINT"
    case SIGHUP: "SIGHUP"
    default: "signal \(signal)"
    }
  }
}

/// The pipe's end ``EarlyStop``'s signal handlers write to: a global, as a C function pointer may
/// not capture context, set before any handler is installed.
nonisolated(unsafe) private var earlyStopPipe: Int32 = -1

private let stopLock = NSLock()
nonisolated(unsafe) private var stopping = false
