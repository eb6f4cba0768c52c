/// Little-endian reads from a crate file, each checked against its end: a corrupt offset or
/// count is an error naming the section, never a read past the buffer.
struct USDByteReader {
  /// The file's bytes; ``at`` counts from the first.
  let bytes: ArraySlice<UInt8>
  let path: String
  let place: String
  var at = 0

  func fail(_ reason: String) -> USDError { USDError(path: path, place: place, reason: reason) }

  mutating func bytes(_ n: Int) throws(USDError) -> ArraySlice<UInt8> {
    guard n >= 0, at >= 0, at <= bytes.count, n <= bytes.count - at else {
      throw fail("\(n) bytes at byte \(at) run past the file's \(bytes.count)")
    }
    defer { at += n }
    return bytes[(bytes.startIndex + at)..<(bytes.startIndex + at + n)]
  }

  mutating func uint64() throws(USDError) -> UInt64 {
    let b = try bytes(8)
    return b.reversed().reduce(0) { $0 << 8 | UInt64($1) }
  }

  mutating func uint32() throws(USDError) -> UInt32 {
    let b = try bytes(4)
    return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func int64() throws(USDError) -> Int64 { Int64(bitPattern: try uint64()) }

  /// The 64-bit integer at byte `offset`, the reader left where it was.
  mutating func int64(at offset: Int) throws(USDError) -> Int64 {
    let saved = at
    at = offset
    defer { at = saved }
    return try int64()
  }

  /// A count of at most 2^28 and of four times the file's bytes (every element takes at least
  /// two bits of it): a larger one is a corrupt file, and is never allocated.
  mutating func count() throws(USDError) -> Int {
    let n = try uint64()
    guard n <= 1 << 28, n <= 4 * UInt64(bytes.count) else { throw fail("a count of \(n)") }
    return Int(n)
  }

  /// `size` bytes of `TfFastCompression` data decompressed to `expected` bytes (at most, unless
  /// `exact`).
  mutating func decompressed(_ size: Int, expected: Int, exact: Bool = true) throws(USDError) -> [UInt8] {
    let data = try bytes(size)
    do { return try USDCompression.decompress(data, expected: expected, exact: exact) } catch {
      throw fail(error.reason)
    }
  }

  /// `count` 32-bit integers stored as USD's compressed integers (a 64-bit size, then the data).
  mutating func compressedInts(_ count: Int, wide: Bool = false) throws(USDError) -> [Int64] {
    let size = Int(clamping: try uint64())
    let data = try bytes(size)
    guard count > 0 else { return [] }
    let width = wide ? 8 : 4
    do {
      let encoded = try USDCompression.decompress(
        data, expected: width + (count * 2 + 7) / 8 + width * count, exact: false)
      return try USDCompression.decodeIntegers(encoded, count: count, wide: wide)
    } catch { throw fail(error.reason) }
  }
}
