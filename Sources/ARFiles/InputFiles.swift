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
/// With ``isTracking`` on (the CLI turns it on first thing), ARFiles' readers (``FileIO``,
/// ``LineReader``, ``LineRangeReader``) note every file they open; readers that open files
/// another way (a video through ffmpeg) note theirs too. Off, as in a library user's process
/// that may well read a file and write it again, only files noted by hand with ``note(_:)`` count.
package enum InputFiles {
  nonisolated(unsafe) private static var tracking = false

  /// Whether the readers note the files they open; set once, before reading.
  package static var isTracking: Bool {
    get { lock.withLock { tracking } }
    set { lock.withLock { tracking = newValue } }
  }

  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ status: stat) { (device, inode) = (UInt64(status.st_dev), UInt64(status.st_ino)) }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var identities: [Identity: String] = [:]

  /// Notes the file at `path` (links followed) as an input; a path that does not exist is ignored.
  package static func note(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return }
    note(status, path: path)
  }

  /// Notes the file at `path` as an input when ``isTracking`` is on (what readers call).
  package static func noteRead(_ path: String) {
    if isTracking { note(path) }
  }

  /// Notes an open file as an input when ``isTracking`` is on (what readers call).
  package static func noteRead(descriptor: Int32, path: String) {
    if isTracking { note(descriptor: descriptor, path: path) }
  }

  /// Forgets `path` as an input: for a state file a command reads and then writes back on
  /// purpose (an alert history).
  package static func forget(_ path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return }
    let identity = Identity(status)
    lock.withLock { _ = identities.removeValue(forKey: identity) }
  }

  /// Notes an open file as an input.
  package static func note(descriptor: Int32, path: String) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return }
    note(status, path: path)
  }

  private static func note(_ status: stat, path: String) {
    let identity = Identity(status)
    lock.withLock { identities[identity] = path }  // the latest name: an earlier one may be gone
  }

  /// The input (as it was named when read) that is the same file as `status`, if any. An input
  /// whose name no longer leads to that device and inode (removed, its inode reused by a new
  /// file) no longer counts.
  static func input(sameAs status: stat) -> String? {
    let identity = Identity(status)
    guard let path = lock.withLock({ identities[identity] }) else { return nil }
    var now = stat()
    guard stat(path, &now) == 0, now.st_dev == status.st_dev, now.st_ino == status.st_ino else { return nil }
    return path
  }

  /// Forgets every input noted (for tests, and for long-lived processes between jobs).
  package static func reset() { lock.withLock { identities.removeAll() } }
}
