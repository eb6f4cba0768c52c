import Foundation

/// The temporary files being written right now (``AtomicFileWriter``'s, a video encoder's), so
/// that a process stopped early, by a time limit or a signal, can remove them and leave nothing
/// half-written behind.
public enum InFlightFiles {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var paths: Set<String> = []

  /// Notes `path` as being written.
  public static func add(_ path: String) {
    lock.withLock { _ = paths.insert(path) }
  }

  /// Notes that `path` is finished (renamed into place or removed).
  public static func remove(_ path: String) {
    lock.withLock { _ = paths.remove(path) }
  }

  /// Removes every file still being written; what a process calls just before it stops early.
  public static func removeAll() {
    lock.withLock {
      for path in paths { unlink(path) }
      paths.removeAll()
    }
  }
}
