#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a text file line by line through a fixed buffer, so a file of any size needs only the
/// memory of its longest line.
///
/// Lines end at `\n` or `\r\n` (files written on Windows or by `NSString`), or, in a file whose
/// first line ends with a lone `\r` (old Mac files), at `\r`, for ``next()``; the last line need
/// not end with a newline. ``nextLines(bytes:)`` splits at `\n` only (the JSON Lines its callers
/// read cannot hold a raw `\r`).
package final class LineReader {
  /// The file's path, for errors.
  package let path: String
  /// The 1-based number of the line ``next()`` returned last.
  package private(set) var lineNumber = 0
  private let file: UnsafeMutablePointer<FILE>
  private var buffer: [UInt8]
  private var start = 0, end = 0, atEOF = false
  /// Whether lines end with a lone `\r` (see `lineEnd()`); nil until the first line end is read.
  private var endsLinesWithCR: Bool?
  /// Bytes read from the file so far, and the file's size when opened: a reader's progress.
  package private(set) var bytesRead: Int64 = 0
  /// The file's size in bytes when it was opened.
  package let size: Int64

  /// The longest line read by default: 64 MiB, far beyond any line of the text formats ARScene
  /// reads, so that a line of gigabytes (a hostile file, or a binary one on a pipe) is an error
  /// naming it rather than an allocation that ends the process.
  package static let defaultMaximumLineLength = 64 << 20

  /// The longest line this reader returns, bytes; a longer one is an error.
  package let maximumLineLength: Int

  /// Opens `path` for reading (`/dev/stdin` for standard input).
  package init(
    path: String, bufferSize: Int = 1 << 20, maximumLineLength: Int = LineReader.defaultMaximumLineLength
  ) throws(FileIOError) {
    self.path = path
    self.maximumLineLength = maximumLineLength
    var status = stat()
    if stat(path, &status) != 0 { throw .missing(path: path) }
    if (status.st_mode & S_IFMT) == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
    guard let file = fopen(path, "rb") else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    self.file = file
    InputFiles.noteRead(descriptor: fileno(file), path: path)
    size = Int64(status.st_size)
    // No bigger than the file needs: a small file (a camera matrix, a clicks file) then costs
    // no megabyte to open.
    let regular = (status.st_mode & S_IFMT) == S_IFREG
    let needed = regular ? min(bufferSize, Int(clamping: status.st_size) + 1) : bufferSize
    buffer = [UInt8](repeating: 0, count: max(64, needed))
  }

  deinit { fclose(file) }

  /// The next line without its line ending, or nil at the end of the file. A UTF-8 byte-order
  /// mark before the first line (as Windows editors write one) is not part of it.
  package func next() throws(FileIOError) -> [UInt8]? {
    guard let line = try nextLine() else { return nil }
    return lineNumber == 1 ? Array(TextBytes.droppingUTF8BOM(line)) : line
  }

  private func nextLine() throws(FileIOError) -> [UInt8]? {
    let (newline, carriageReturn) = (UInt8(ascii: "\n"), UInt8(ascii: "\r"))
    while true {
      let separator = try lineEnd()
      if let stop = buffer[start..<end].firstIndex(of: separator) {
        var last = stop
        if separator == newline && last > start && buffer[last - 1] == carriageReturn { last -= 1 }
        let line = Array(buffer[start..<last])
        start = stop + 1
        lineNumber += 1
        return line
      }
      if atEOF {
        guard start < end else { return nil }
        var last = end
        if buffer[last - 1] == carriageReturn { last -= 1 }
        let line = Array(buffer[start..<last])
        start = end
        lineNumber += 1
        return line
      }
      try refill()
    }
  }

  /// The byte lines end with: `\n` (a `\r` before it dropped), or `\r` in a file whose first
  /// line ends with a lone `\r` (old Mac files). Decided once, from the text up to the first
  /// line end, so the search for lines stays one `firstIndex(of:)`.
  private func lineEnd() throws(FileIOError) -> UInt8 {
    if let endsLinesWithCR { return endsLinesWithCR ? UInt8(ascii: "\r") : UInt8(ascii: "\n") }
    while true {
      let text = buffer[start..<end]
      if let lineFeed = text.firstIndex(of: UInt8(ascii: "\n")) {
        // A lone CR before the first LF: a CR file (its lines may hold no LF at all).
        let cr = text[..<lineFeed].firstIndex(of: UInt8(ascii: "\r"))
        endsLinesWithCR = cr.map { $0 + 1 < lineFeed } ?? false
        break
      }
      if let cr = text.firstIndex(of: UInt8(ascii: "\r")), cr + 1 < end || atEOF {
        endsLinesWithCR = true
        break
      }
      guard !atEOF else {
        endsLinesWithCR = false
        break
      }
      try refill()
    }
    return try lineEnd()
  }

  /// The next run of whole lines, about `bytes` long (at least one line, however long), with
  /// their line endings as in the file, and the number of the first of them; nil at the end of
  /// the file. For readers that split the lines among threads; ``lineNumber`` moves past them.
  package func nextLines(bytes: Int) throws(FileIOError) -> (text: [UInt8], firstLine: Int)? {
    while end - start < bytes && !atEOF { try refill() }
    while true {
      let wanted = min(end, start + max(bytes, 1))
      // The last line end within the wanted span, else the first after it.
      var cut = buffer[start..<wanted].lastIndex(of: UInt8(ascii: "\n"))
      if cut == nil { cut = buffer[wanted..<end].firstIndex(of: UInt8(ascii: "\n")) }
      if cut == nil && atEOF {
        guard start < end else { return nil }
        cut = end - 1
      }
      if let cut {
        let text = Array(buffer[start...cut])
        let firstLine = lineNumber + 1
        lineNumber += Self.newlines(in: text) + (text.last == UInt8(ascii: "\n") ? 0 : 1)
        start = cut + 1
        return (text, firstLine)
      }
      try refill()
    }
  }

  /// The byte offset of the first byte not yet returned (as a line or a run of lines).
  package var offset: Int64 { bytesRead - Int64(end - start) }

  /// The `\n` bytes in `text`: a plain loop over the bytes, which the compiler vectorises (a
  /// closure counting them does not get vectorised, and a run is a quarter megabyte).
  private static func newlines(in text: [UInt8]) -> Int {
    text.withUnsafeBufferPointer { bytes in
      var count = 0
      for byte in bytes { count &+= byte == UInt8(ascii: "\n") ? 1 : 0 }
      return count
    }
  }

  /// Moves the unread bytes to the front and reads more after them, growing the buffer for a
  /// line longer than it.
  private func refill() throws(FileIOError) {
    if start > 0 {
      let unread = end - start
      if unread > 0 {
        buffer.withUnsafeMutableBufferPointer { b in
          _ = memmove(b.baseAddress!, b.baseAddress! + start, unread)
        }
      }
      (start, end) = (0, unread)
    }
    if end == buffer.count {
      guard buffer.count < maximumLineLength else {
        throw .unreadable(
          path: path, reason: "line \(lineNumber + 1) is longer than \(maximumLineLength >> 20) MiB")
      }
      buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, maximumLineLength)))
    }
    let count = buffer.count - end
    let read = buffer.withUnsafeMutableBufferPointer { b in fread(b.baseAddress! + end, 1, count, file) }
    if read < count {
      if ferror(file) != 0 { throw .unreadable(path: path, reason: "I/O error after line \(lineNumber)") }
      atEOF = true
    }
    end += read
    bytesRead += Int64(read)
  }
}
