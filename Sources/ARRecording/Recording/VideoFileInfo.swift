import Foundation

/// The picture size of an MP4/M4V/MOV video, read from its container's track header (`tkhd`)
/// without decoding: how a recording learns the size its intrinsics refer to.
enum VideoFileInfo {
  /// Width and height of the first video track, pixels, or nil when the file is not an
  /// ISO-BMFF video or has no video track.
  static func size(path: String) -> SIMD2<Int>? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let end = try? handle.seekToEnd() else { return nil }
    return firstVideoSize(handle, from: 0, to: end)
  }

  /// Walks the boxes in `[from, to)`, descending into the containers on the way to `tkhd`.
  private static func firstVideoSize(_ handle: FileHandle, from: UInt64, to: UInt64) -> SIMD2<Int>? {
    var offset = from
    while offset + 8 <= to {
      guard let (size, type, headerLength) = box(handle, at: offset, limit: to), size >= headerLength else {
        return nil
      }
      let body = offset + headerLength, boxEnd = offset + size
      switch type {
      case "moov", "mdia":
        if let found = firstVideoSize(handle, from: body, to: boxEnd) { return found }
      case "trak":
        // The track header comes first; the handler (`mdia/hdlr`) says whether it is video.
        if isVideo(handle, from: body, to: boxEnd), let size = trackSize(handle, from: body, to: boxEnd) {
          return size
        }
      default: break
      }
      offset = boxEnd
    }
    return nil
  }

  private static func box(_ handle: FileHandle, at offset: UInt64, limit: UInt64) -> (UInt64, String, UInt64)?
  {
    guard let bytes = read(handle, at: offset, count: 16), bytes.count >= 8 else { return nil }
    var size = UInt64(bigEndian: bytes[0..<4])
    let type = String(decoding: bytes[4..<8], as: UTF8.self)
    var header: UInt64 = 8
    if size == 1 {
      guard bytes.count == 16 else { return nil }
      size = UInt64(bigEndian: bytes[8..<16])
      header = 16
    } else if size == 0 {
      size = limit - offset
    }
    guard offset + size <= limit else { return nil }
    return (size, type, header)
  }

  private static func isVideo(_ handle: FileHandle, from: UInt64, to: UInt64) -> Bool {
    var offset = from
    while offset + 8 <= to, let (size, type, header) = box(handle, at: offset, limit: to), size >= header {
      if type == "mdia" { return isVideo(handle, from: offset + header, to: offset + size) }
      if type == "hdlr", let bytes = read(handle, at: offset + header, count: 12), bytes.count == 12 {
        return String(decoding: bytes[8..<12], as: UTF8.self) == "vide"
      }
      offset += size
    }
    return false
  }

  private static func trackSize(_ handle: FileHandle, from: UInt64, to: UInt64) -> SIMD2<Int>? {
    var offset = from
    while offset + 8 <= to, let (size, type, header) = box(handle, at: offset, limit: to), size >= header {
      if type == "tkhd", let bytes = read(handle, at: offset + header, count: Int(min(size - header, 104))) {
        // Version 0: 4 + 20 + 8 + 8 + 36 bytes before width; version 1: 4 + 32 + 8 + 8 + 36.
        let widthAt = bytes.first == 1 ? 88 : 76
        guard bytes.count >= widthAt + 8 else { return nil }
        let width = Int(UInt64(bigEndian: bytes[widthAt..<widthAt + 4]) >> 16)
        let height = Int(UInt64(bigEndian: bytes[widthAt + 4..<widthAt + 8]) >> 16)
        return width > 0 && height > 0 ? SIMD2(width, height) : nil
      }
      offset += size
    }
    return nil
  }

  private static func read(_ handle: FileHandle, at offset: UInt64, count: Int) -> [UInt8]? {
    guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: count) else {
      return nil
    }
    return [UInt8](data)
  }
}

extension UInt64 {
  /// A big-endian unsigned integer from up to eight bytes.
  fileprivate init(bigEndian bytes: ArraySlice<UInt8>) {
    self = bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }
}
