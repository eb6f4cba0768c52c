import ARMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What an output path may be: nothing yet, or a regular file that is none of the inputs.
///
/// Every writer asks here before it creates its temporary file and again just before renaming
/// it into place (an input read in between counts), so that a device node (`-o /dev/null` as
/// root), a FIFO or a symbolic link is left as it is, never replaced by a regular file, and an
/// input is never overwritten by its own output, by any name.
package enum OutputTarget {
  /// Checks that `path` may be written.
  ///
  /// - Returns: The permission bits the new file gets: an existing file's own (so a 0600 file
  ///   stays private), otherwise 0666 less the process's umask, as `open(2)` would give it.
  /// - Throws: ``FileIOError/unwritable(path:reason:)`` saying what is there.
  @discardableResult
  package static func check(_ path: String) throws(FileIOError) -> Permissions {
    var status = stat()
    guard lstat(path, &status) == 0 else {
      guard errno == ENOENT else { throw .unwritable(path: path, reason: String(cString: strerror(errno))) }
      return Permissions(mode: 0o666 & ~processUmask, owner: nil)
    }
    let kind = status.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw .unwritable(path: path, reason: "exists and is not a regular file (\(describe(kind)))")
    }
    if let input = InputFiles.input(sameAs: status) {
      let name = input == path ? "" : " (\(input.escapedForMessage))"
      throw .unwritable(path: path, reason: "is one of this run's inputs\(name); write the output elsewhere")
    }
    return Permissions(
      mode: mode_t(status.st_mode) & 0o7777, owner: (uid_t(status.st_uid), gid_t(status.st_gid)))
  }

  /// The mode and owner a written file takes on.
  package struct Permissions: Sendable {
    /// Permission bits.
    package var mode: mode_t
    /// The replaced file's owner and group, kept where the process may (as root); nil for a new file.
    package var owner: (user: uid_t, group: gid_t)?

    /// Gives the open file `descriptor` these permissions.
    package func apply(to descriptor: Int32) {
      if let owner { _ = fchown(descriptor, owner.user, owner.group) }
      _ = fchmod(descriptor, mode)
    }
  }

  /// The process's umask, read once without changing it (Linux's /proc/self/status has it;
  /// elsewhere it is set and put back at once).
  static let processUmask: mode_t = {
    if let file = fopen("/proc/self/status", "r") {
      defer { fclose(file) }
      var line = [CChar](repeating: 0, count: 256)
      while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix("Umask:") else { continue }
        let digits = text.dropFirst(6).filter { ("0"..."7").contains($0) }
        if let value = mode_t(digits, radix: 8) { return value }
      }
    }
    let mask = umask(0o022)
    umask(mask)
    return mask
  }()

  /// What a file of type `kind` (`st_mode & S_IFMT`) is, for a message.
  package static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFLNK: "a symbolic link"
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
