/// The tokens of USD's text format (`.usda`): names, numbers, strings, asset paths (`@…@`),
/// prim and property paths (`</…>`) and punctuation, each with its line for errors;
/// comments (`#`, `//`, `/* … */`) skipped.
struct USDTextTokenizer {
  enum Kind: Equatable {
    /// A keyword, type or property name (`def`, `point3f`, `primvars:st:indices`).
    case name
    case number
    case string
    case asset
    case path
    /// One of `( ) [ ] { } = , : ;` and `.` (as in `.connect`).
    case punctuation
  }

  struct Token {
    var kind: Kind
    var text: String
    var line: Int
  }

  /// Tokenises `bytes` (the layer's text after its `#usda` header line).
  static func tokens(_ bytes: ArraySlice<UInt8>, path: String, firstLine: Int) throws(USDError) -> [Token] {
    var out: [Token] = []
    var i = bytes.startIndex, line = firstLine
    func fail(_ reason: String) -> USDError { USDError(path: path, place: "line \(line)", reason: reason) }
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    while i < bytes.endIndex {
      let c = bytes[i]
      switch c {
      case 0x0A:
        line += 1
        i += 1
      case 0x20, 0x09, 0x0D: i += 1
      case UInt8(ascii: "#"):
        while i < bytes.endIndex, bytes[i] != 0x0A { i += 1 }
      // C++ comments, which Sdf's lexer skips too: `//` to the line's end, `/* … */` across lines.
      case UInt8(ascii: "/") where bytes[i...].starts(with: [0x2F, 0x2F]):
        while i < bytes.endIndex, bytes[i] != 0x0A { i += 1 }
      case UInt8(ascii: "/") where bytes[i...].starts(with: [0x2F, 0x2A]):
        var end = i + 2
        while end < bytes.endIndex, !bytes[end...].starts(with: [0x2A, 0x2F]) {
          if bytes[end] == 0x0A { line += 1 }
          end += 1
        }
        guard end < bytes.endIndex else { throw fail("an unterminated comment (/* without */)") }
        i = end + 2
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        let start = line
        let (value, end) = try quoted(bytes, from: i, line: &line, path: path)
        out.append(Token(kind: .string, text: value, line: start))
        i = end
      case UInt8(ascii: "@"):
        // @path@, or @@@path@@@ for a path holding an @ (and `\@@@` for three of them).
        let fence = bytes[i...].starts(with: [0x40, 0x40, 0x40]) ? 3 : 1
        var end = i + fence
        var path: [UInt8] = []
        while end < bytes.endIndex, !bytes[end...].starts(with: repeatElement(UInt8(0x40), count: fence)) {
          if bytes[end] == 0x0A { throw fail("an asset path runs past its line") }
          if fence == 3, bytes[end...].starts(with: Array(#"\@@@"#.utf8)) {
            path += [0x40, 0x40, 0x40]
            end += 4
            continue
          }
          path.append(bytes[end])
          end += 1
        }
        guard end < bytes.endIndex else { throw fail("an unterminated asset path") }
        out.append(Token(kind: .asset, text: String(decoding: path, as: UTF8.self), line: line))
        i = end + fence
      case UInt8(ascii: "<"):
        guard let end = bytes[i...].firstIndex(of: UInt8(ascii: ">")), !bytes[i..<end].contains(0x0A) else {
          throw fail("an unterminated path (<…>)")
        }
        out.append(Token(kind: .path, text: text(i + 1..<end), line: line))
        i = end + 1
      case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        // A number may start at its decimal point (`.001`); a property's `.connect` never at a digit.
        UInt8(ascii: ".") where i + 1 < bytes.endIndex && (0x30...0x39).contains(bytes[i + 1]):
        var end = i + 1
        while end < bytes.endIndex, isNumberByte(bytes[end]) { end += 1 }
        out.append(Token(kind: .number, text: text(i..<end), line: line))
        i = end
      case _ where isNameStart(c):
        var end = i + 1
        while end < bytes.endIndex, isNameByte(bytes[end]) { end += 1 }
        out.append(Token(kind: .name, text: text(i..<end), line: line))
        i = end
      case UInt8(ascii: "."):
        out.append(Token(kind: .punctuation, text: ".", line: line))
        i += 1
      case _ where Array("()[]{}=,:;".utf8).contains(c):
        out.append(Token(kind: .punctuation, text: String(UnicodeScalar(c)), line: line))
        i += 1
      default:
        throw fail("unexpected '\(String(decoding: [c], as: UTF8.self).quotedForMessage)'")
      }
    }
    return out
  }

  /// A string in `"…"`, `'…'` or triple quotes, with its escapes, and the index after it.
  private static func quoted(_ bytes: ArraySlice<UInt8>, from start: Int, line: inout Int, path: String)
    throws(USDError) -> (String, Int)
  {
    func fail(_ reason: String) -> USDError { USDError(path: path, place: "line \(line)", reason: reason) }
    let q = bytes[start]
    let triple = bytes[start...].starts(with: [q, q, q])
    var i = start + (triple ? 3 : 1)
    var out: [UInt8] = []
    while i < bytes.endIndex {
      let c = bytes[i]
      if c == q && (!triple || bytes[i...].starts(with: [q, q, q])) {
        return (String(decoding: out, as: UTF8.self), i + (triple ? 3 : 1))
      }
      if c == 0x0A {
        guard triple else { throw fail("a string runs past its line") }
        line += 1
      }
      if c == UInt8(ascii: "\\"), i + 1 < bytes.endIndex {
        i += 1
        switch bytes[i] {
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "t"): out.append(0x09)
        default: out.append(bytes[i])
        }
      } else {
        out.append(c)
      }
      i += 1
    }
    throw fail("an unterminated string")
  }

  private static func isNameStart(_ c: UInt8) -> Bool {
    (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z") || c == UInt8(ascii: "_") || c >= 0x80
  }

  /// Names run through namespaces (`primvars:st`) and array brackets stay separate tokens.
  private static func isNameByte(_ c: UInt8) -> Bool {
    isNameStart(c) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ":")
  }

  private static func isNumberByte(_ c: UInt8) -> Bool {
    (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
      || c == UInt8(ascii: "E") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
  }
}
