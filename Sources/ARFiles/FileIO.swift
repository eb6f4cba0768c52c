import ARMath
import Foundation

/// Whole-file reads and atomic writes, with errors that name the file.
package enum FileIO {
  /// The bytes of the file at `path`.
  package static func read(_ path: String) throws(FileIOError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path: path)
    }
    guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "is a directory") }
    // A pipe, socket or device is refused before it is opened: opening a named pipe waits for
    // a writer (forever, without one) and a device may never end.
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      throw .unreadable(
        path: path, reason: "not a regular file (\(OutputTarget.describe(status.st_mode & S_IFMT)))")
    }
    if let bytes = readRegularFile(path) {
      InputFiles.noteRead(path)
      return bytes
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw .unreadable(path: path, reason: "permission denied or I/O error")
    }
    InputFiles.noteRead(path)
    return [UInt8](data)
  }

  /// A regular file's bytes read straight into the array (one copy, not `Data`'s and then the
  /// array's: a model is tens of megabytes), a large file in parts on several cores (the copy
  /// and the first touch of the array's pages take most of a read, and they divide); nil for
  /// anything else, on any failure, or for a file that changed size while it was read: the
  /// caller's general path then meets and names it.
  private static func readRegularFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let size = Int(status.st_size)
    // From 4 MB, where a second thread's hand-over is small beside the copy it halves (a 6 MB
    // USDZ's load 4% faster on two cores than from 16 MB, A/B of two binaries).
    let parts = size >= 4 << 20 ? min(4, cores) : 1
    var complete = true
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      guard let base = buffer.baseAddress else {
        count = 0
        return
      }
      // A large file's pages on huge pages where the kernel gives them: a fault a 4 KiB page
      // was much of a 136 MB OBJ's read.
      HugePages.advise(buffer)
      var flags = Array(repeating: false, count: parts)
      let done = flags.withUnsafeMutableBufferPointer { flags in
        let (into, marks) = (
          UnsafeSendableMutablePointer(base), UnsafeSendableMutablePointer(flags.baseAddress!)
        )
        forEachBand(parts, threads: parts) { part in
          marks.pointer[part] = readAll(
            fd, into: into.pointer, from: part * size / parts, to: (part + 1) * size / parts)
        }
        return flags.allSatisfy { $0 }
      }
      complete = done
      count = done ? size : 0
    }
    // A file that grew while it was read is read again whole by the general path.
    var probe: UInt8 = 0
    guard complete, pread(fd, &probe, 1, off_t(size)) == 0 else { return nil }
    return bytes
  }

  /// The cores this process may use, asked once: Foundation reads the cgroup's quota files each
  /// time it is asked (3% of a 6 MB USDZ's serial load).
  private static let cores = ProcessInfo.processInfo.activeProcessorCount

  /// Reads the file's bytes `from..<to` into the same offsets of `buffer`; false when the file
  /// ends before `to` or a read fails.
  private static func readAll(_ fd: Int32, into buffer: UnsafeMutablePointer<UInt8>, from: Int, to: Int)
    -> Bool
  {
    var at = from
    while at < to {
      let n = pread(fd, buffer + at, to - at, off_t(at))
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      at += n
    }
    return true
  }

  /// The first `count` bytes of the file at `path` (all of a shorter one), without the UTF-8
  /// byte-order mark: what a reader looks at to tell a file's layout.
  package static func readPrefix(_ path: String, count: Int) throws(FileIOError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .missing(path: path)
    }
    guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "is a directory") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(path: path, reason: "permission denied or I/O error")
    }
    defer { try? handle.close() }
    let data: Data
    do { data = try handle.read(upToCount: count) ?? Data() } catch {
      throw .unreadable(path: path, reason: error.localizedDescription)
    }
    InputFiles.noteRead(path)
    return Array(TextBytes.droppingUTF8BOM([UInt8](data)))
  }

  /// The bytes of the text file at `path`, without the UTF-8 byte-order mark some Windows
  /// editors put first (it is no part of the first field).
  package static func readText(_ path: String) throws(FileIOError) -> [UInt8] {
    TextBytes.withoutUTF8BOM(try read(path))
  }

  /// Writes `bytes` to `path` atomically: into a temporary file in the same directory (known to
  /// ``InFlightFiles``, so a time limit's exit removes it), then renamed over `path`, so a reader
  /// never sees half a file and a failure leaves nothing behind.
  package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileIOError) {
    try bytes.withUnsafeBytes { buffer in
      Result { () throws(FileIOError) in try writeAtomically(buffer, to: path) }
    }.get()
  }

  /// Writes the bytes of `buffer` to `path` atomically, as the array form above does: for bytes
  /// held elsewhere (an encoder's output).
  ///
  /// The path `-` is standard output: the bytes are written there instead (a pipe, a terminal,
  /// whatever the caller redirected it to), for a command that writes one output whole.
  package static func writeAtomically(_ buffer: UnsafeRawBufferPointer, to path: String) throws(FileIOError) {
    if path == standardOutput {
      try writeToStandardOutput(buffer)
      return
    }
    let writer = try AtomicFileWriter(path: path)
    try writer.write(buffer: buffer)
    try writer.commit()
  }

  /// The output path that means standard output.
  package static let standardOutput = "-"

  private static func writeToStandardOutput(_ buffer: UnsafeRawBufferPointer) throws(FileIOError) {
    fflush(nil)  // what print() buffered goes first
    guard writeAll(buffer, to: 1) else {
      throw .unwritable(path: standardOutput, reason: String(cString: strerror(errno)))
    }
  }

  /// Writes all of `buffer` to the open file `descriptor`, again after an interruption (EINTR).
  /// - Returns: false when a write fails (`errno` says why).
  package static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < buffer.count {
      let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written > 0 {
        offset += written
      } else if !(written < 0 && errno == EINTR) {
        return false
      }
    }
    return true
  }
}
