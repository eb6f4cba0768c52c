import ARFiles

/// An image file's width and height read from its header alone (no pixel is decoded): JPEG's
/// start-of-frame segment, PNG's `IHDR`. A reader that needs a frame's size for its intrinsics
/// (3D Recorder's projection) asks this rather than decoding the frame.
enum ImageHeader {
  /// Bytes read looking for the size: a JPEG's start of frame follows its EXIF and ICC
  /// segments, which stay under this in what phones write.
  static let searchedBytes = 1 << 20

  /// The size of the JPEG or PNG at `path`, pixels, or nil when the file is missing or its
  /// header does not say (not a JPEG or PNG, truncated before the size, a zero side).
  static func size(path: String) -> SIMD2<Int>? {
    guard let bytes = try? FileIO.readPrefix(path, count: searchedBytes) else { return nil }
    return size(bytes)
  }

  /// The size a JPEG's or PNG's first bytes state.
  static func size(_ bytes: [UInt8]) -> SIMD2<Int>? {
    let size: SIMD2<Int>?
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      size = bytes.count >= 24 ? SIMD2(bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4)) : nil
    } else if bytes.starts(with: [0xFF, 0xD8]) {
      size = jpegFrameSize(bytes)
    } else {
      size = nil
    }
    guard let size, size.x > 0, size.y > 0 else { return nil }
    return size
  }

  /// The first start-of-frame segment's size, walking the segments from the SOI marker.
  private static func jpegFrameSize(_ bytes: [UInt8]) -> SIMD2<Int>? {
    var at = 2
    while at + 4 <= bytes.count {
      guard bytes[at] == 0xFF else { return nil }
      let marker = bytes[at + 1]
      if marker == 0xFF {  // fill byte before a marker
        at += 1
        continue
      }
      if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {  // no length
        at += 2
        continue
      }
      let length = bigEndian(bytes, at + 2, 2)
      guard length >= 2 else { return nil }
      // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC): precision, height, width.
      if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
        guard at + 9 <= bytes.count else { return nil }
        return SIMD2(bigEndian(bytes, at + 7, 2), bigEndian(bytes, at + 5, 2))
      }
      if marker == 0xDA || marker == 0xD9 { return nil }  // scan data before any frame header
      at += 2 + length
    }
    return nil
  }

  private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
    bytes[at..<(at + count)].reduce(0) { $0 << 8 | Int($1) }
  }
}
