/// Checks on a text file's bytes before a parser sees them: UTF-8 validity with the place of the
/// first bad byte, byte-order marks, and an XML document's declared encoding.
package enum TextBytes {
  /// Where the first byte that is not part of valid UTF-8 lies: 1-based line and column
  /// (counted in bytes), and the byte; nil when all of `bytes` is UTF-8.
  package static func firstInvalidUTF8(in bytes: some Collection<UInt8>) -> (
    line: Int, column: Int, byte: UInt8
  )? {
    let bytes = Array(bytes)
    var line = 1, lineStart = 0, i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == UInt8(ascii: "\n") {
        (line, lineStart, i) = (line + 1, i + 1, i + 1)
        continue
      }
      let length = sequenceLength(bytes, at: i)
      guard length > 0 else { return (line, i - lineStart + 1, b) }
      i += length
    }
    return nil
  }

  /// The length of the well-formed UTF-8 sequence at `i` (Unicode's table 3-7: no overlong
  /// forms, no surrogates, nothing past U+10FFFF), or 0 when there is none.
  static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
    func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
      i + k < bytes.count && range.contains(bytes[i + k])
    }
    switch bytes[i] {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: return continuation(1) ? 2 : 0
    case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
    case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
    case 0xE1...0xEF: return continuation(1) && continuation(2) ? 3 : 0
    case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
    case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
    default: return 0
    }
  }

  /// `bytes` without a UTF-8 byte-order mark (EF BB BF) at the start.
  package static func droppingUTF8BOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
  }

  /// `bytes` without a leading UTF-8 byte-order mark, as an array: the same array, not a copy,
  /// when there is none (a model's text is a hundred megabytes).
  package static func withoutUTF8BOM(_ bytes: [UInt8]) -> [UInt8] {
    bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
  }

  /// Why an XML document cannot be handed to the parser as UTF-8.
  package struct XMLProblem: Error, CustomStringConvertible {
    /// Where, as `line L, column C`, or `encoding`.
    package let place: String
    package let reason: String
    package var description: String { "\(place): \(reason)" }
  }

  /// An XML document as UTF-8 for Foundation's parser (which must never see invalid UTF-8: it
  /// traps on a bad byte in a name). The declaration's `encoding` is honoured: UTF-8 (or none)
  /// is checked, ISO-8859-1, Latin-1 and Windows-1252 are transcoded (the declaration rewritten
  /// to say UTF-8), UTF-16 with its byte-order mark is transcoded; anything else is refused.
  /// Processing instructions without data, on which the parser crashes, become spaces
  /// (``blankingEmptyProcessingInstructions(_:)``).
  package static func xmlAsUTF8(_ bytes: [UInt8]) throws(XMLProblem) -> [UInt8] {
    blankingEmptyProcessingInstructions(try utf8Document(bytes))
  }

  /// The document of `bytes` as UTF-8, as ``xmlAsUTF8(_:)`` describes.
  private static func utf8Document(_ bytes: [UInt8]) throws(XMLProblem) -> [UInt8] {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      let littleEndian = bytes[0] == 0xFF
      var units: [UInt16] = []
      var i = 2
      while i + 1 < bytes.count {
        let (a, b) = (UInt16(bytes[i]), UInt16(bytes[i + 1]))
        units.append(littleEndian ? a | b << 8 : a << 8 | b)
        i += 2
      }
      return try utf8Document(Array(rewritingDeclaration(String(decoding: units, as: UTF16.self)).utf8))
    }
    let body = Array(droppingUTF8BOM(bytes))
    switch declaredEncoding(body)?.lowercased() {
    case nil, "utf-8", "utf8", "us-ascii", "ascii":
      if let bad = firstInvalidUTF8(in: body) {
        throw XMLProblem(
          place: "line \(bad.line), column \(bad.column)",
          reason:
            "byte 0x\(String(bad.byte, radix: 16, uppercase: true)) is not UTF-8 (the file declares UTF-8 or nothing)"
        )
      }
      return body
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "windows-1252", "cp1252":
      return Array(rewritingDeclaration(Windows1252.decode(body)).utf8)
    case let other?:
      throw XMLProblem(
        place: "encoding",
        reason: "'\(other.prefix(40))' is not an encoding arscene reads (UTF-8, UTF-16, Latin-1)")
    }
  }

  /// The `encoding` of an XML declaration at the start of `bytes`, if it has one.
  static func declaredEncoding(_ bytes: [UInt8]) -> String? {
    guard bytes.starts(with: Array("<?xml".utf8)),
      let end = bytes.prefix(200).firstIndex(of: UInt8(ascii: ">"))
    else { return nil }
    let declaration = String(decoding: bytes[..<end], as: UTF8.self)
    guard let range = declaration.range(of: "encoding") else { return nil }
    let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    return String(rest.dropFirst().prefix { $0 != quote })
  }

  /// `text` with its XML declaration's encoding said as UTF-8.
  static func rewritingDeclaration(_ text: String) -> String {
    guard text.hasPrefix("<?xml"), let end = text.firstIndex(of: ">") else { return text }
    let declaration = text[..<end]
    guard let range = declaration.range(of: "encoding") else { return text }
    let rest = declaration[range.upperBound...]
    guard let open = rest.firstIndex(where: { $0 == "\"" || $0 == "'" }) else { return text }
    let quote = rest[open]
    guard let close = rest[rest.index(after: open)...].firstIndex(of: quote) else { return text }
    return String(text[..<rest.index(after: open)]) + "UTF-8" + String(text[close...])
  }
}
