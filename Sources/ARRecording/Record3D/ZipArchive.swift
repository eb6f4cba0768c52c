import ARFiles
import Foundation

/// The entries of a zip archive (a Record3D `.r3d` capture), found through its central
/// directory and read one at a time from the file: a capture of thousands of frames is never
/// read whole.
///
/// Stored entries are read as they are; deflated ones through ``inflate``, which a module that
/// links a DEFLATE decoder sets (ARImageIO's libdeflate, set by `arscene` and `ARReplay`).
/// Zip64, encryption and other methods are refused by name.
package final class ZipArchive: @unchecked Sendable {
  /// An entry: where its data starts, how it is stored, and its sizes.
  package struct Entry: Sendable {
    package var name: String
    package var method: Int
    package var compressedSize: Int, size: Int
    package var headerOffset: Int
  }

  /// Raw DEFLATE decoding (`compressed`, the size it decodes to); nil until a module sets it.
  nonisolated(unsafe) package static var inflate: (@Sendable (ArraySlice<UInt8>, Int) throws -> [UInt8])?

  /// The archive's path.
  package let path: String
  /// Its entries by name.
  package let entries: [String: Entry]
  private let file: FileHandle
  private let lock = NSLock()

  /// Opens the archive at `path` and reads its central directory.
  package init(path: String) throws(RecordingError) {
    self.path = path
    guard let file = FileHandle(forReadingAtPath: path) else {
      throw .unreadable(path: path, reason: "cannot open the archive")
    }
    self.file = file
    let size: Int
    do { size = Int(try file.seekToEnd()) } catch { throw .unreadable(path: path, reason: "\(error)") }
    let tail = try Self.read(file, at: max(0, size - 65_557), count: min(size, 65_557), path: path)
    guard let end = Self.lastIndex(of: [0x50, 0x4B, 0x05, 0x06], in: tail), tail.count - end >= 22 else {
      throw .unknownFormat(path: path, reason: "not a zip archive (no end of central directory)")
    }
    func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    func u32(_ b: [UInt8], _ i: Int) -> Int { u16(b, i) | u16(b, i + 2) << 16 }
    let count = u16(tail, end + 10), directorySize = u32(tail, end + 12),
      directoryOffset = u32(tail, end + 16)
    guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else {
      throw .unreadable(path: path, reason: "a Zip64 archive, which is not read")
    }
    guard directoryOffset + directorySize <= size else {
      throw .unreadable(path: path, reason: "its central directory lies past its end (truncated)")
    }
    let directory = try Self.read(file, at: directoryOffset, count: directorySize, path: path)
    var entries: [String: Entry] = [:], p = 0
    for _ in 0..<count {
      guard directory.count - p >= 46, u32(directory, p) == 0x0201_4B50 else {
        throw .unreadable(path: path, reason: "a damaged central directory at byte \(directoryOffset + p)")
      }
      let nameLength = u16(directory, p + 28), extra = u16(directory, p + 30),
        comment = u16(directory, p + 32)
      guard directory.count - p - 46 >= nameLength + extra + comment else {
        throw .unreadable(path: path, reason: "a damaged central directory at byte \(directoryOffset + p)")
      }
      let name = String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
      guard u16(directory, p + 8) & 1 == 0 else {
        throw .unreadable(path: path, reason: "'\(name.prefix(60))' is encrypted")
      }
      entries[name] = Entry(
        name: name, method: u16(directory, p + 10), compressedSize: u32(directory, p + 20),
        size: u32(directory, p + 24), headerOffset: u32(directory, p + 42))
      p += 46 + nameLength + extra + comment
    }
    self.entries = entries
  }

  deinit { try? file.close() }

  /// The bytes of the entry `name`, decompressed; at most `limit` of them.
  package func contents(_ name: String, limit: Int = 1 << 30) throws(RecordingError) -> [UInt8] {
    guard let entry = entries[name] else {
      throw .unreadable(path: path, reason: "no entry '\(name.prefix(60))' in the archive")
    }
    let place = "\(path): entry '\(name.prefix(60))'"
    guard entry.size <= limit else {
      throw .unreadable(
        path: path, reason: "entry '\(name.prefix(60))' is \(entry.size) bytes, over \(limit)")
    }
    let header = try readLocked(at: entry.headerOffset, count: 30)
    guard header.count == 30, header[0] == 0x50, header[1] == 0x4B, header[2] == 3, header[3] == 4 else {
      throw .unreadable(path: place, reason: "no local header where the directory says")
    }
    let skip = 30 + (Int(header[26]) | Int(header[27]) << 8) + (Int(header[28]) | Int(header[29]) << 8)
    let data = try readLocked(at: entry.headerOffset + skip, count: entry.compressedSize)
    guard data.count == entry.compressedSize else { throw .unreadable(path: place, reason: "truncated") }
    switch entry.method {
    case 0:
      guard entry.size == entry.compressedSize else {
        throw .unreadable(path: place, reason: "sizes disagree")
      }
      return data
    case 8:
      guard let inflate = Self.inflate else {
        throw .unreadable(path: place, reason: "deflated, and no DEFLATE decoder is linked (ARImageIO)")
      }
      do {
        let bytes = try inflate(data[...], entry.size)
        guard bytes.count == entry.size else { throw RecordingError.unreadable(path: place, reason: "size") }
        return bytes
      } catch { throw .unreadable(path: place, reason: "cannot inflate: \(error)") }
    default:
      throw .unreadable(path: place, reason: "compressed with method \(entry.method), which is not read")
    }
  }

  /// `count` bytes at `offset`, one reader of the file at a time (frames decode on threads).
  private func readLocked(at offset: Int, count: Int) throws(RecordingError) -> [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return try Self.read(file, at: offset, count: count, path: path)
  }

  private static func read(_ file: FileHandle, at offset: Int, count: Int, path: String)
    throws(RecordingError)
    -> [UInt8]
  {
    do {
      try file.seek(toOffset: UInt64(offset))
      return [UInt8](try file.read(upToCount: count) ?? Data())
    } catch { throw .unreadable(path: path, reason: "\(error)") }
  }

  private static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
    guard bytes.count >= pattern.count else { return nil }
    for i in stride(from: bytes.count - pattern.count, through: 0, by: -1)
    where bytes[i..<(i + pattern.count)].elementsEqual(pattern) {
      return i
    }
    return nil
  }
}
