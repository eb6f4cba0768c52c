/// The files of a USDZ package: a zip archive whose entries are stored, not compressed (the
/// USDZ specification requires it, so layers and textures can be read in place), the first of
/// them the root layer.
struct USDZArchive {
  /// Each entry's name and bytes, in the archive's order.
  let entries: [(name: String, bytes: ArraySlice<UInt8>)]

  /// The archive in `bytes` (where they are in the file read: entries are slices of them, not
  /// copies; offsets in messages count from the archive's first byte).
  init(_ bytes: ArraySlice<UInt8>, path: String) throws(USDError) {
    var entries: [(name: String, bytes: ArraySlice<UInt8>)] = []
    var offset = 0
    let base = bytes.startIndex
    func fail(_ reason: String) -> USDError { USDError(path: path, place: "zip", reason: reason) }
    func u16(_ at: Int) -> Int { Int(bytes[base + at]) | Int(bytes[base + at + 1]) << 8 }
    func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
    while offset + 4 <= bytes.count, u32(offset) == 0x0403_4B50 {
      guard offset + 30 <= bytes.count else { throw fail("a truncated local header at byte \(offset)") }
      let flags = u16(offset + 6), method = u16(offset + 8)
      let size = u32(offset + 18), nameLength = u16(offset + 26), extraLength = u16(offset + 28)
      let nameStart = offset + 30, dataStart = nameStart + nameLength + extraLength
      guard dataStart <= bytes.count, size <= bytes.count - dataStart else {
        throw fail("entry at byte \(offset) runs past the archive's \(bytes.count) bytes (truncated)")
      }
      let name = String(decoding: bytes[(base + nameStart)..<(base + nameStart + nameLength)], as: UTF8.self)
      guard method == 0 else {
        throw fail(
          "'\(name.prefix(60))' is compressed (method \(method)); USDZ stores its files uncompressed")
      }
      guard flags & 0x08 == 0 else {
        throw fail("'\(name.prefix(60))' has no size in its header (a streamed zip)")
      }
      entries.append((name, bytes[(base + dataStart)..<(base + dataStart + size)]))
      offset = dataStart + size
    }
    guard !entries.isEmpty else { throw fail("no files: not a zip archive, or an empty one") }
    self.entries = entries
  }
}
