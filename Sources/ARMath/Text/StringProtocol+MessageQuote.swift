extension StringProtocol {
  /// At most 60 characters of this text, for an error message (cut with "…" when longer), with
  /// control and bidirectional-formatting characters escaped: a bad field is quoted, never echoed
  /// whole, however long the line it came from, and never splits or reorders the message line.
  package var quotedForMessage: String {
    let cut = count <= 60 ? String(self) : String(prefix(57)) + "…"
    return cut.escapedForMessage
  }

  /// This text with every character that could break or disguise a one-line message escaped:
  /// C0 and C1 controls (a newline in a file name included) as `\n`, `\t`, `\r` or `\u{…}`, and the
  /// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
  /// U+061C) that make a terminal show text in another order than it is.
  package var escapedForMessage: String { escapedForMessage(keepingLineBreaks: false) }

  /// This text escaped as ``escapedForMessage``, but with its line breaks (`\n`, and `\r` for a
  /// progress bar redrawn in place) kept: for a stream of lines made by the program itself, whose
  /// parts from files (names, fields) are then still unable to hide or reorder anything.
  package func escapedForMessage(keepingLineBreaks: Bool) -> String {
    let escapes = { (scalar: Unicode.Scalar) in
      scalar.needsMessageEscape && !(keepingLineBreaks && (scalar == "\n" || scalar == "\r"))
    }
    guard unicodeScalars.contains(where: escapes) else { return String(self) }
    var out = ""
    for scalar in unicodeScalars {
      guard escapes(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return out
  }
}

extension Unicode.Scalar {
  /// A control character, or a formatting character that changes the order text is shown in.
  fileprivate var needsMessageEscape: Bool {
    switch value {
    case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x061C: true
    default: false
    }
  }
}
