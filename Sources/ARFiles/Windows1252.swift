/// Text that is not UTF-8, as exporters on Windows write names and comments: read as
/// Windows-1252, which is Latin-1 on every printable byte and adds curly quotes, dashes, `€`
/// and a few letters in 0x80–0x9F. Any byte sequence decodes, so a file is never refused for its
/// encoding alone; the readers say when they used this.
package enum Windows1252 {
  /// Unicode scalars of 0x80–0x9F; the five bytes Windows-1252 leaves undefined keep their
  /// Latin-1 (C1 control) meaning, as Windows' own decoder does.
  package static let upperControls: [Unicode.Scalar] = [
    "\u{20AC}", "\u{81}", "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
    "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", "\u{8D}", "\u{017D}", "\u{8F}",
    "\u{90}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
    "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", "\u{9D}", "\u{017E}", "\u{0178}",
  ]

  /// The text of `bytes` read as Windows-1252.
  package static func decode(_ bytes: some Sequence<UInt8>) -> String {
    var text = String.UnicodeScalarView()
    for byte in bytes {
      text.append((0x80...0x9F).contains(byte) ? upperControls[Int(byte) - 0x80] : Unicode.Scalar(byte))
    }
    return String(text)
  }
}
