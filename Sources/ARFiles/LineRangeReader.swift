#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the lines of a regular file by byte ranges, each range from any thread (`pread`): a
/// range owns the lines that start inside it, so that ranges cut anywhere, read in parallel,
/// give every line exactly once. What a parser splitting a large file among threads needs
/// without one thread reading the whole file for the others.
package final class LineRangeReader: @unchecked Sendable {
  /// The file's path, for errors.
  package let path: String
  /// The file's size when opened, bytes.
  package let size: Int64
  private let descriptor: Int32

  /// Opens `path`; nil when it is not a regular file (a pipe, a device: no positional reads).
  package init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    InputFiles.noteRead(descriptor: descriptor, path: path)
    (self.path, self.size, self.descriptor) = (path, Int64(status.st_size), descriptor)
  }

  deinit { close(descriptor) }

  /// The lines starting at a byte of `range` (its lower bound at least 1: a line starts at
  /// byte 0 only before any range), whole, with their line endings, however far past the range
  /// the last one ends; `text[start...]` holds them (empty when no line starts in the range).
  package func lines(startingIn range: Range<Int64>) throws(FileIOError) -> (text: [UInt8], start: Int) {
    precondition(range.lowerBound >= 1, "a range starts after the first byte")
    let upper = min(range.upperBound, size)
    guard range.lowerBound < upper else { return ([], 0) }
    // From the byte before the range: a line starts at the range's first byte when it is '\n'.
    var text = try read(range.lowerBound - 1, count: Int(upper - range.lowerBound) + 1)
    let newline = UInt8(ascii: "\n")
    guard let before = text.firstIndex(of: newline), before + 1 < text.count else { return ([], 0) }
    // The last line runs on to its '\n' (or the end of the file).
    var next = upper
    while text.last != newline && next < size {
      let more = try read(next, count: Int(min(1 << 16, size - next)))
      next += Int64(more.count)
      if let end = more.firstIndex(of: newline) {
        text += more[...end]
        break
      }
      text += more
    }
    return (text, before + 1)
  }

  /// `count` bytes from `offset` (fewer only at the end of the file).
  private func read(_ offset: Int64, count: Int) throws(FileIOError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let got = bytes.withUnsafeMutableBytes { b in
        pread(descriptor, b.baseAddress! + done, count - done, off_t(offset + Int64(done)))
      }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else {
        throw .unreadable(path: path, reason: "I/O error at byte \(offset + Int64(done))")
      }
      if got == 0 { break }
      done += got
    }
    if done < count { bytes.removeLast(count - done) }
    return bytes
  }
}
