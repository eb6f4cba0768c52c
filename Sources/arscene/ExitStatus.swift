import ArgumentParser
import Foundation

/// What `arscene` exits with, for schedulers to act on: 0 done; 2 bad input (retrying gives the
/// same failure: do not); 64 a usage error; 75 a transient failure of the machine (a disk full
/// or over quota, an I/O error, an interrupted or busy call: retry, elsewhere if need be),
/// sysexits' `EX_TEMPFAIL`. A stop by a signal ends as the signal does.
enum ExitStatus {
  static let badInput: Int32 = 2
  static let transient: Int32 = 75

  /// The `errno`s that say the machine, not the input, failed.
  static let transientErrors: [Int32] = [ENOSPC, EDQUOT, EIO, EINTR, EAGAIN, ENOMEM, ENFILE, EMFILE]

  /// The exit code for a failure described by `message`: transient when it carries the system's
  /// text of one of ``transientErrors`` (readers and writers quote `strerror`), else bad input.
  static func code(for message: String) -> Int32 {
    let transient = transientErrors.contains { code in message.contains(String(cString: strerror(code))) }
    return transient ? Self.transient : badInput
  }
}
