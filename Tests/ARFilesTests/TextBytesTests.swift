import Foundation
import Testing

@testable import ARFiles

/// Text checked before a parser sees it: where the first byte that is not UTF-8 is, and XML in
/// the encodings its declaration may name.
@Suite("Text bytes")
struct TextBytesTests {
  @Test(
    "the first byte that is not UTF-8, by line and column",
    arguments: [
      ([0x61, 0x0A, 0x62, 0xC3] as [UInt8], 2, 2, 0xC3 as UInt8),  // a lead byte with nothing after it
      ([0xC0, 0x80], 1, 1, 0xC0),  // an overlong NUL
      ([0x61, 0xED, 0xA0, 0x80], 1, 2, 0xED),  // a UTF-16 surrogate
      ([0x0A, 0x0A, 0x20, 0xF4, 0x90, 0x80, 0x80], 3, 2, 0xF4),  // past U+10FFFF
      ([0x78, 0xFF], 1, 2, 0xFF),
    ])
  func firstInvalid(_ bytes: [UInt8], _ line: Int, _ column: Int, _ byte: UInt8) {
    let found = TextBytes.firstInvalidUTF8(in: bytes)
    #expect(
      found?.line == line && found?.column == column && found?.byte == byte, "\(String(describing: found))")
  }

  @Test("valid UTF-8 of every length passes, seeded: as many strings as Swift itself encodes")
  func validPasses() {
    var state: UInt64 = 52
    for _ in 0..<2000 {
      var scalars = String.UnicodeScalarView()
      for _ in 0..<20 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let value = UInt32(truncatingIfNeeded: state >> 33) % 0x11_0000
        if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
      }
      #expect(TextBytes.firstInvalidUTF8(in: Array(String(scalars).utf8)) == nil)
    }
  }

  @Test(
    "XML as UTF-8: UTF-8 kept, Latin-1 and UTF-16 transcoded, the declaration saying so; other encodings refused"
  )
  func xmlEncodings() throws {
    let latin: [UInt8] =
      Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><a>Z"#.utf8) + [0xE1] + Array("vist</a>".utf8)
    let fromLatin = try TextBytes.xmlAsUTF8(latin)
    #expect(
      String(decoding: fromLatin, as: UTF8.self) == #"<?xml version="1.0" encoding="UTF-8"?><a>Závist</a>"#)
    let units = Array(#"<?xml version="1.0" encoding="UTF-16"?><a>Ž</a>"#.utf16)
    let utf16: [UInt8] =
      [0xFF, 0xFE] + units.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    #expect(
      String(decoding: try TextBytes.xmlAsUTF8(utf16), as: UTF8.self)
        == #"<?xml version="1.0" encoding="UTF-8"?><a>Ž</a>"#)
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)
    #expect(try TextBytes.xmlAsUTF8(bom) == Array("<a/>".utf8))
    #expect {
      try TextBytes.xmlAsUTF8(Array(#"<?xml version="1.0" encoding="EBCDIC"?><a/>"#.utf8))
    } throws: { error in
      (error as? TextBytes.XMLProblem)?.place == "encoding"
    }
  }

  /// Foundation's XML parser crashes on a processing instruction without data: those become
  /// spaces wherever they stand (libxml2's error recovery may read one inside what a
  /// well-formed reading would not), lines and columns kept; instructions with data stay.
  @Test(arguments: [
    ("<a><?note?></a>", "<a>        </a>"),
    ("<?xml version=\"1.0\"?>\n<?garmin?><a/>", "<?xml version=\"1.0\"?>\n          <a/>"),
    ("<a><?note with data?></a>", "<a><?note with data?></a>"),
    ("<a><!-- <?note?> --></a>", "<a><!--          --></a>"),
    ("<a><![CDATA[<?note?>]]></a>", "<a><![CDATA[        ]]></a>"),
    // An unfinished declaration, then an empty instruction libxml2 reads after recovering.
    (
      "<?xml versi8000</e>\n<t>1:<?xm45:52Zl?>",
      "<?xml versi8000</e>\n<t>1:" + String(repeating: " ", count: 13)
    ),
    ("<a><??></a>", "<a><??></a>"),
    ("<a><?x?", "<a><?x?"),
  ])
  func emptyProcessingInstructions(xml: String, safe: String) throws {
    #expect(String(decoding: try TextBytes.xmlAsUTF8(Array(xml.utf8)), as: UTF8.self) == safe)
  }
}
