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
public enum EarlyStop {
  /// The signals that stop the process cleanly.
  public static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// Removes the temporary files and stops the children; safe to call from any thread.
  public static func cleanUp() {
    // Children first: ffmpeg, stopped, finishes the file it writes (it traps SIGTERM to write
    // the trailer), which must then be removed, not the other way round.
    ChildProcesses.stopAll()
    InFlightFiles.removeAll()
  }

  /// Installs the handling of ``signals``, and ignores SIGPIPE (a reader that went away is an
  /// error on the write, reported as such, never a silent death). Call first thing in `main`,
  /// before any thread starts: the signals are blocked in every thread and taken by one thread
  /// of their own, which cleans up, then dies of the same signal so the parent sees why.
  /// Children started by Foundation's `Process` begin with an empty signal mask.
  ///
  /// - Parameter message: Called with the signal's name before cleaning up (to say why).
  public static func install(message: @escaping @Sendable (String) -> Void) {
    signal(SIGPIPE, SIG_IGN)
    var set = sigset_t()
    sigemptyset(&set)
    for s in signals { sigaddset(&set, s) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let blocked = set
    Thread.detachNewThread {
      var set = blocked
      var received: Int32 = 0
      while sigwait(&set, &received) != 0 {}
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
