import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files this process has read, by device and inode, so that no output replaces one of
/// them, whatever name or link it is reached by (`render S.json -o S.json`, or `-o` through a
/// symbolic link onto the recording being validated).
///
/// ARFiles' readers (``FileIO``, ``LineReader``, ``LineRangeReader``) note every file they open;
/// readers that open files another way (a video through ffmpeg) call ``note(_:)``.
public enum InputFiles {
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var identities: [Identity: String] = [:]

  /// Notes the file at `path` (links followed) as an input; a path that does not exist is ignored.
  public static func note(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return }
    note(status, path: path)
  }

  /// Notes an open file as an input.
  public static func note(descriptor: Int32, path: String) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return }
    note(status, path: path)
  }

  private static func note(_ status: stat, path: String) {
    let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    lock.withLock { _ = identities.updateValue(identities[identity] ?? path, forKey: identity) }
  }

  /// The input (as it was named when read) that is the same file as `status`, if any.
  static func input(sameAs status: stat) -> String? {
    let identity = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    return lock.withLock { identities[identity] }
  }

  /// Forgets every input noted (for tests, and for long-lived processes between jobs).
  public static func reset() { lock.withLock { identities.removeAll() } }
}
