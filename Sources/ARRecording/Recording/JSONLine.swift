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
    /// An array of at most four numbers (the format's vectors have two to four), in lanes, and its
    /// length.
    case numbers(SIMD4<Double>, count: Int)
    /// A longer array of numbers (a lens's eight distortion coefficients).
    case longNumbers([Double])
  }

  /// A member's name: one of the format's fields, or another name (an `x_` extension, or a
  /// misspelling to report).
  enum Key: Equatable {
    case field(RecordingField)
    case other(String)

    var name: String {
      switch self {
      case .field(let f): f.name
      case .other(let s): s
      }
    }
  }

  /// The members in the order written.
  private(set) var members: [(key: Key, value: Value)] = []

  /// Why a line is not such an object; `field` names the member at fault when there is one.
  struct Failure: Error {
    var field: String
    var reason: String
  }

  /// Parses `bytes`, a whole line.
  init(_ bytes: [UInt8]) throws(Failure) {
    self = try bytes.withUnsafeBufferPointer { (b) throws(Failure) in try JSONLine(b) }
  }

  /// Parses `bytes`, a whole line.
  init(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) {
    members.reserveCapacity(12)
    var parser = Parser(bytes: bytes)
    var seen = SeenKeys()
    try parser.expect(UInt8(ascii: "{"), what: "a JSON object")
    parser.skipSpace()
    if parser.peek == UInt8(ascii: "}") {
      parser.index += 1
    } else {
      while true {
        parser.skipSpace()
        let key = try parser.key()
        try parser.expect(UInt8(ascii: ":"), what: "':' after \"\(key.name)\"")
        let value = try parser.value(field: key)
        if !seen.insert(key) {
          throw Failure(field: key.name, reason: "appears twice")
        }
        members.append((key, value))
        parser.skipSpace()
        if parser.peek == UInt8(ascii: ",") {
          parser.index += 1
          continue
        }
        try parser.expect(UInt8(ascii: "}"), what: "',' or '}' after \"\(key.name)\" (a truncated line?)")
        break
      }
    }
    parser.skipSpace()
    guard parser.index == bytes.count else { throw Failure(field: "line", reason: "text after the object") }
  }

  /// The keys met so far on a line: the format's fields as bits, other names listed.
  private struct SeenKeys {
    var fields: RecordingFieldSet = [], others: [String] = []

    /// Adds `key`; false if it was there already.
    mutating func insert(_ key: Key) -> Bool {
      switch key {
      case .field(let f):
        if fields.contains(f) { return false }
        fields.insert(f)
      case .other(let name):
        if others.contains(name) { return false }
        others.append(name)
      }
      return true
    }
  }

  subscript(field: RecordingField) -> Value? {
    for member in members {
      if case .field(let f) = member.key, f == field { return member.value }
    }
    return nil
  }

  /// The first member not in `allowed` (and not an `x_` extension), for an error on a misspelt
  /// or misplaced field.
  func firstUnknownKey(_ allowed: RecordingFieldSet) -> String? {
    for member in members {
      switch member.key {
      case .field(let f) where !allowed.contains(f): return f.name
      case .other(let name) where !name.hasPrefix("x_"): return name
      default: continue
      }
    }
    return nil
  }

  // MARK: Typed access, each failure naming the field.

  func number(_ field: RecordingField) throws(Failure) -> Double {
    guard let value = self[field] else { throw Failure(field: field.name, reason: "missing") }
    guard case .number(let x) = value else { throw Failure(field: field.name, reason: "expected a number") }
    return x
  }

  func optionalNumber(_ field: RecordingField) throws(Failure) -> Double? {
    switch self[field] {
    case nil, .null?: return nil
    case .number(let x)?: return x
    default: throw Failure(field: field.name, reason: "expected a number or null")
    }
  }

  func string(_ field: RecordingField) throws(Failure) -> String {
    guard let value = self[field] else { throw Failure(field: field.name, reason: "missing") }
    guard case .string(let s) = value else { throw Failure(field: field.name, reason: "expected a string") }
    return s
  }

  func optionalString(_ field: RecordingField) throws(Failure) -> String? {
    switch self[field] {
    case nil, .null?: return nil
    case .string(let s)?: return s
    default: throw Failure(field: field.name, reason: "expected a string or null")
    }
  }

  /// An array of exactly `count` (at most four) numbers, in the first `count` lanes.
  func numbers(_ field: RecordingField, count: Int) throws(Failure) -> SIMD4<Double> {
    guard let value = self[field] else { throw Failure(field: field.name, reason: "missing") }
    guard case .numbers(let xs, let n) = value, n == count else {
      throw Failure(field: field.name, reason: "expected an array of \(count) numbers")
    }
    return xs
  }

  /// An array of numbers of any length, or nil when the member is absent or null.
  func optionalNumberList(_ field: RecordingField) throws(Failure) -> [Double]? {
    switch self[field] {
    case nil, .null?: return nil
    case .numbers(let xs, let count)?: return (0..<count).map { xs[$0] }
    case .longNumbers(let xs)?: return xs
    default: throw Failure(field: field.name, reason: "expected an array of numbers or null")
    }
  }

  func optionalNumbers(_ field: RecordingField, count: Int) throws(Failure) -> SIMD4<Double>? {
    switch self[field] {
    case nil, .null?: return nil
    default: return try numbers(field, count: count)
    }
  }

  private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
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

    /// A member's name: matched against the format's fields as bytes, a `String` only otherwise.
    mutating func key() throws(Failure) -> Key {
      let begin = index + 1
      if peek == UInt8(ascii: "\"") {
        var end = begin
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
          end += 1
        }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
          let field = RecordingField.named(bytes, from: begin, to: end)
        {
          index = end + 1
          return .field(field)
        }
      }
      return .other(try string(field: "line"))
    }

    mutating func value(field key: Key) throws(Failure) -> Value {
      let field = key.name
      skipSpace()
      switch peek {
      case UInt8(ascii: "\"")?: return .string(try string(field: field))
      case UInt8(ascii: "[")?:
        index += 1
        var xs = SIMD4<Double>(), count = 0
        skipSpace()
        if peek == UInt8(ascii: "]") {
          index += 1
          return .numbers(xs, count: 0)
        }
        var long: [Double] = []
        while true {
          let x = try number(field: field)
          if count < 4 {
            xs[count] = x
          } else {
            if long.isEmpty { long = [xs[0], xs[1], xs[2], xs[3]] }
            long.append(x)
          }
          count += 1
          skipSpace()
          if peek == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard peek == UInt8(ascii: "]") else { throw Failure(field: field, reason: "expected ',' or ']'") }
          index += 1
          return count > 4 ? .longNumbers(long) : .numbers(xs, count: count)
        }
      case UInt8(ascii: "t")?: try literal("true", field: field); return .bool(true)
      case UInt8(ascii: "f")?: try literal("false", field: field); return .bool(false)
      case UInt8(ascii: "n")?: try literal("null", field: field); return .null
      case nil: throw Failure(field: field, reason: "no value (a truncated line?)")
      default: return .number(try number(field: field))
      }
    }

    mutating func literal(_ word: StaticString, field: String) throws(Failure) {
      let count = word.utf8CodeUnitCount
      guard index + count <= bytes.count, (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
      else {
        throw Failure(field: field, reason: "not a JSON value")
      }
      index += count
    }

    /// A JSON number (strict grammar; NaN and infinities are not JSON).
    mutating func number(field: String) throws(Failure) -> Double {
      skipSpace()
      let begin = index
      // DecimalParser checks JSON's grammar and converts exactly in one pass.
      let parsed =
        begin < bytes.count
        ? DecimalParser.parse(bytes.baseAddress!, from: begin, to: bytes.count, json: true) : nil
      if let parsed, parsed.value.isFinite {
        index = parsed.next
        return parsed.value
      }
      // Show the offending token (NaN, Infinity, 01, 1e999) as far as it goes.
      var end = begin
      while end < bytes.count, ![0x2C, 0x5D, 0x7D, 0x20].contains(bytes[end]) { end += 1 }
      let token = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self)
      throw Failure(field: field, reason: "'\(token.quotedForMessage)' is not a finite JSON number")
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
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<plainEnd]), as: UTF8.self)
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
