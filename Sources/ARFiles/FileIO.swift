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
  /// array's: a model is tens of megabytes); nil for anything else, or on any failure, which
  /// the caller's general path then meets and names.
  private static func readRegularFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    var bytes = [UInt8](unsafeUninitializedCapacity: Int(status.st_size)) { buffer, count in
      count = 0
      while count < buffer.count {
        let n = Foundation.read(fd, buffer.baseAddress! + count, buffer.count - count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        count += n
      }
    }
    guard bytes.count == Int(status.st_size) else { return nil }
    // A file that grew while it was read: the rest too.
    var more = [UInt8](repeating: 0, count: 1 << 12)
    while true {
      let n = more.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return n == 0 ? bytes : nil }
      bytes += more[..<n]
    }
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
