#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The top-level boxes of an MP4 (ISO base media) file: enough to tell a finished file from one
/// an encoder could not finish, which ffmpeg can leave with exit status 0 ("Error writing
/// trailer" on a full disk): its boxes must tile the file exactly and include `ftyp` and
/// `moov`, the movie header without which no player can read the frames. Reads only the
/// boxes' headers, however long the video.
enum MP4Boxes {
  /// Why the file at `path` is not a finished MP4, or nil when it is.
  static func problem(inFileAt path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return "cannot read it back: \(String(cString: strerror(errno)))" }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return "cannot read it back" }
    let length = Int64(status.st_size)
    var offset: Int64 = 0
    var types: Set<String> = []
    var header = [UInt8](repeating: 0, count: 16)
    while offset < length {
      let got = pread(descriptor, &header, 16, off_t(offset))
      guard got >= 8 else { return "the file ends inside a box header" }
      var size = header[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
      let type = String(decoding: header[4..<8], as: UTF8.self)
      var headerSize: Int64 = 8
      if size == 1 {
        guard got >= 16 else { return "the file ends inside a box header" }
        let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard large <= UInt64(Int64.max) else { return "box '\(type)' is larger than the file" }
        (size, headerSize) = (Int64(large), 16)
      } else if size == 0 {
        size = length - offset  // the last box runs to the end of the file
      }
      guard size >= headerSize, size <= length - offset else {
        return "box '\(type)' runs past the end of the file (the encoder did not finish it)"
      }
      types.insert(type)
      offset += size
    }
    guard types.contains("ftyp") else { return "no 'ftyp' box: not an MP4" }
    guard types.contains("moov") else { return "no 'moov' box: the encoder did not finish the file" }
    return nil
  }
}
