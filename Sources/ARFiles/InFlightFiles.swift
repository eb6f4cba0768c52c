import Foundation

/// The temporary files being written right now (``AtomicFileWriter``'s, a video encoder's), so
/// that a process stopped early, by a time limit or a signal, can remove them and leave nothing
/// half-written behind.
package enum InFlightFiles {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var paths: Set<String> = []
  /// Set by ``removeAll()``: no temporary file may be made after it, as another thread may be
  /// about to make one while the process stops.
  nonisolated(unsafe) private static var closed = false

  /// Makes a new empty file from `template` (`mkstemps`: six `X`s, followed by `suffixLength`
  /// bytes kept as they are) and notes it as being written, as one step, so that a stop cannot
  /// fall between the two and leave the file behind.
  /// - Parameter output: The file the temporary one is for, which an error names.
  /// - Returns: The open descriptor and the file's path.
  /// - Throws: ``FileIOError/unwritable(path:reason:)`` when the file cannot be made or the
  ///   process is stopping.
  package static func makeTemporary(
    for output: String, template: String, suffixLength: Int32 = 0
  ) throws(FileIOError) -> (descriptor: Int32, path: String) {
    var bytes = Array(template.utf8CString)
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { throw .unwritable(path: output, reason: "the process is stopping") }
    let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, suffixLength) }
    guard descriptor >= 0 else { throw .unwritable(path: output, reason: String(cString: strerror(errno))) }
    let path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    paths.insert(path)
    return (descriptor, path)
  }

  /// Notes that `path` is finished (renamed into place or removed).
  package static func remove(_ path: String) {
    lock.withLock { _ = paths.remove(path) }
  }

  /// Removes every file still being written, and refuses to make any more; what a process calls
  /// just before it stops early.
  package static func removeAll() {
    lock.withLock {
      closed = true
      for path in paths { unlink(path) }
      paths.removeAll()
    }
  }
}
