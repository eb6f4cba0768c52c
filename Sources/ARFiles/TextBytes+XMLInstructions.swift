extension TextBytes {
  /// `bytes` (UTF-8 XML) with every `<?name?>` (a processing instruction without data) turned
  /// into as many spaces.
  ///
  /// swift-corelibs-foundation's `XMLParser` reads such an instruction's data with `strlen` on
  /// the null pointer libxml2 hands it, and crashes. Every `<?` is looked at, inside comments,
  /// CDATA and other instructions too: libxml2 recovers from errors (an unfinished declaration,
  /// say) and may then read as an instruction what a well-formed reading would not. Instructions
  /// mean nothing to the formats arscene reads, and spaces of the same length keep every line and
  /// column where it was.
  package static func blankingEmptyProcessingInstructions(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var i = 0
    while i + 1 < bytes.count {
      guard bytes[i] == UInt8(ascii: "<"), bytes[i + 1] == UInt8(ascii: "?") else {
        i += 1
        continue
      }
      // The target: up to white space, the next `?` or the next `<`.
      var k = i + 2
      while k < bytes.count,
        ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "<")].contains(bytes[k])
      {
        k += 1
      }
      if k > i + 2, k + 1 < bytes.count, bytes[k] == UInt8(ascii: "?"), bytes[k + 1] == UInt8(ascii: ">") {
        for j in i...(k + 1) { out[j] = UInt8(ascii: " ") }
        i = k + 2
      } else {
        i += 1
      }
    }
    return out
  }
}
