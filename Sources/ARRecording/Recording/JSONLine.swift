import ARMath

/// One line of JSON Lines holding a flat object (ARScene's recording format): string keys,
/// values that are numbers, strings, booleans, null, or arrays of numbers. A small exact parser
/// rather than `JSONDecoder`, because a recording has millions of lines and each error must name
/// its field.
struct JSONLine {
  enum Value: Equatable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
    case numbers([Double])
  }

  /// The members in the order written.
  private(set) var members: [(key: String, value: Value)] = []

  /// Why a line is not such an object; `field` names the member at fault when there is one.
  struct Failure: Error {
    var field: String
    var reason: String
  }

  /// Parses `bytes`, a whole line.
  init(_ bytes: [UInt8]) throws(Failure) {
    var parser = Parser(bytes: bytes)
    try parser.expect(UInt8(ascii: "{"), what: "a JSON object")
    parser.skipSpace()
    if parser.peek == UInt8(ascii: "}") {
      parser.index += 1
    } else {
      while true {
        parser.skipSpace()
        let key = try parser.string(field: "line")
        try parser.expect(UInt8(ascii: ":"), what: "':' after \"\(key)\"")
        let value = try parser.value(field: key)
        if members.contains(where: { $0.key == key }) { throw Failure(field: key, reason: "appears twice") }
        members.append((key, value))
        parser.skipSpace()
        if parser.peek == UInt8(ascii: ",") {
          parser.index += 1
          continue
        }
        try parser.expect(UInt8(ascii: "}"), what: "',' or '}' after \"\(key)\" (a truncated line?)")
        break
      }
    }
    parser.skipSpace()
    guard parser.index == bytes.count else { throw Failure(field: "line", reason: "text after the object") }
  }

  subscript(key: String) -> Value? { members.first { $0.key == key }?.value }

  /// The first key not in `known` (and not an `x_` extension), for an error on a misspelt field.
  /// A linear search: keys are short, and comparing short strings costs less than hashing them.
  func firstUnknownKey(_ known: [String]) -> String? {
    members.first { m in !m.key.hasPrefix("x_") && !known.contains(m.key) }?.key
  }

  // MARK: Typed access, each failure naming the field.

  func number(_ key: String) throws(Failure) -> Double {
    guard let value = self[key] else { throw Failure(field: key, reason: "missing") }
    guard case .number(let x) = value else { throw Failure(field: key, reason: "expected a number") }
    return x
  }

  func optionalNumber(_ key: String) throws(Failure) -> Double? {
    switch self[key] {
    case nil, .null?: return nil
    case .number(let x)?: return x
    default: throw Failure(field: key, reason: "expected a number or null")
    }
  }

  func string(_ key: String) throws(Failure) -> String {
    guard let value = self[key] else { throw Failure(field: key, reason: "missing") }
    guard case .string(let s) = value else { throw Failure(field: key, reason: "expected a string") }
    return s
  }

  func optionalString(_ key: String) throws(Failure) -> String? {
    switch self[key] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    default: throw Failure(field: key, reason: "expected a string or null")
    }
  }

  func numbers(_ key: String, count: Int) throws(Failure) -> [Double] {
    guard let value = self[key] else { throw Failure(field: key, reason: "missing") }
    guard case .numbers(let xs) = value, xs.count == count else {
      throw Failure(field: key, reason: "expected an array of \(count) numbers")
    }
    return xs
  }

  func optionalNumbers(_ key: String, count: Int) throws(Failure) -> [Double]? {
    switch self[key] {
    case nil, .null?: return nil
    default: return try numbers(key, count: count)
    }
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
        index += 1
      }
    }

    /// Consumes `byte`; `what` (built only on failure) says what was expected.
    mutating func expect(_ byte: UInt8, what: @autoclosure () -> String) throws(Failure) {
      skipSpace()
      guard peek == byte else { throw Failure(field: "line", reason: "expected \(what())") }
      index += 1
    }

    mutating func value(field: String) throws(Failure) -> Value {
      skipSpace()
      switch peek {
      case UInt8(ascii: "\"")?: return .string(try string(field: field))
      case UInt8(ascii: "[")?:
        index += 1
        var xs: [Double] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
          index += 1
          return .numbers(xs)
        }
        while true {
          xs.append(try number(field: field))
          skipSpace()
          if peek == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard peek == UInt8(ascii: "]") else { throw Failure(field: field, reason: "expected ',' or ']'") }
          index += 1
          return .numbers(xs)
        }
      case UInt8(ascii: "t")?: try literal("true", field: field); return .bool(true)
      case UInt8(ascii: "f")?: try literal("false", field: field); return .bool(false)
      case UInt8(ascii: "n")?: try literal("null", field: field); return .null
      case nil: throw Failure(field: field, reason: "no value (a truncated line?)")
      default: return .number(try number(field: field))
      }
    }

    mutating func literal(_ word: String, field: String) throws(Failure) {
      let utf8 = Array(word.utf8)
      guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
        throw Failure(field: field, reason: "not a JSON value")
      }
      index += utf8.count
    }

    /// A JSON number (strict grammar; NaN and infinities are not JSON).
    mutating func number(field: String) throws(Failure) -> Double {
      skipSpace()
      let begin = index
      func digits() -> Int {
        let from = index
        while index < bytes.count, bytes[index] >= 0x30 && bytes[index] <= 0x39 { index += 1 }
        return index - from
      }
      if peek == UInt8(ascii: "-") { index += 1 }
      let whole = digits()
      var valid = whole > 0 && !(whole > 1 && bytes[index - whole] == 0x30)
      if peek == UInt8(ascii: ".") {
        index += 1
        valid = valid && digits() > 0
      }
      if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
        index += 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
        valid = valid && digits() > 0
      }
      // The grammar is checked above; DecimalParser converts (exactly), strtod past its fast path.
      let parsed: Double? =
        valid
        ? bytes.withUnsafeBufferPointer { p in
          DecimalParser.parse(p.baseAddress!, from: begin, to: index, comma: true).map(\.value)
        } : nil
      guard let x = parsed, x.isFinite else {
        // Show the offending token (NaN, Infinity, 1.2.3) as far as it goes.
        var end = index
        while end < bytes.count, ![0x2C, 0x5D, 0x7D, 0x20].contains(bytes[end]) { end += 1 }
        let token = String(decoding: bytes[begin..<end], as: UTF8.self)
        throw Failure(field: field, reason: "'\(token.quotedForMessage)' is not a finite JSON number")
      }
      return x
    }

    mutating func string(field: String) throws(Failure) -> String {
      skipSpace()
      guard peek == UInt8(ascii: "\"") else { throw Failure(field: field, reason: "expected a string") }
      index += 1
      // Most strings (every key) have no escapes: take them as they are.
      var plainEnd = index
      while plainEnd < bytes.count, bytes[plainEnd] != UInt8(ascii: "\""),
        bytes[plainEnd] != UInt8(ascii: "\\")
      {
        plainEnd += 1
      }
      if plainEnd < bytes.count, bytes[plainEnd] == UInt8(ascii: "\"") {
        defer { index = plainEnd + 1 }
        return String(decoding: bytes[index..<plainEnd], as: UTF8.self)
      }
      var out: [UInt8] = []
      while index < bytes.count {
        let b = bytes[index]
        index += 1
        switch b {
        case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
        case UInt8(ascii: "\\"):
          guard index < bytes.count else { break }
          let e = bytes[index]
          index += 1
          switch e {
          case UInt8(ascii: "n"): out.append(0x0A)
          case UInt8(ascii: "t"): out.append(0x09)
          case UInt8(ascii: "r"): out.append(0x0D)
          case UInt8(ascii: "b"): out.append(0x08)
          case UInt8(ascii: "f"): out.append(0x0C)
          case UInt8(ascii: "u"):
            guard index + 4 <= bytes.count,
              let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw Failure(field: field, reason: "a bad \\u escape") }
            index += 4
            var scalar = code
            // A surrogate pair.
            if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count, bytes[index] == 0x5C,
              bytes[index + 1] == UInt8(ascii: "u"),
              let low = UInt32(String(decoding: bytes[index + 2..<index + 6], as: UTF8.self), radix: 16),
              (0xDC00..<0xE000).contains(low)
            {
              scalar = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
              index += 6
            }
            out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8))
          default: out.append(e)
          }
        default: out.append(b)
        }
      }
      throw Failure(field: field, reason: "an unterminated string (a truncated line?)")
    }
  }
}
