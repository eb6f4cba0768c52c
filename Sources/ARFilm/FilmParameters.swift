import Foundation

/// A stage's parameters as a preset file gives them (a JSON object), read with their documented
/// ranges: every error names the file and the field's path (`stages[2].grain.iso`), and a key no
/// stage knows is an error too (a misspelt parameter must not be silently ignored).
public struct FilmParameters: Sendable {
  /// The file, for errors.
  public let path: String
  /// The object's path in the file, as `stages[2].grain`.
  public let field: String
  let values: [String: JSONValue]

  /// A JSON value, decoded once and kept `Sendable`.
  enum JSONValue: Sendable, Decodable {
    case number(Double), string(String), bool(Bool), array([JSONValue]), object([String: JSONValue]), null

    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if c.decodeNil() {
        self = .null
      } else if let b = try? c.decode(Bool.self) {
        self = .bool(b)
      } else if let n = try? c.decode(Double.self) {
        self = .number(n)
      } else if let s = try? c.decode(String.self) {
        self = .string(s)
      } else if let a = try? c.decode([JSONValue].self) {
        self = .array(a)
      } else {
        self = .object(try c.decode([String: JSONValue].self))
      }
    }

    /// A value given in code: numbers, strings, booleans, arrays and dictionaries of them.
    init(_ any: Any) {
      switch any {
      case let b as Bool: self = .bool(b)
      case let n as Double: self = .number(n)
      case let n as Int: self = .number(Double(n))
      case let n as Float: self = .number(Double(n))
      case let s as String: self = .string(s)
      case let a as [Any]: self = .array(a.map(JSONValue.init))
      case let o as [String: Any]: self = .object(o.mapValues(JSONValue.init))
      default: self = .null
      }
    }
  }

  init(path: String, field: String, values: [String: JSONValue]) {
    self.path = path
    self.field = field
    self.values = values
  }

  /// Parameters given in code, for stages built without a file (`<code>` in errors).
  public init(_ values: [String: Any] = [:], field: String = "stage") {
    self.init(path: "<code>", field: field, values: values.mapValues(JSONValue.init))
  }

  func fail(_ key: String, _ reason: String) -> FilmError {
    .invalidParameter(path: path, field: field + "." + key, reason: reason)
  }

  /// Refuses keys other than `known`.
  public func only(_ known: Set<String>) throws(FilmError) {
    for key in values.keys.sorted() where !known.contains(key) {
      throw fail(key, "unknown parameter (known: \(known.sorted().joined(separator: ", ")))")
    }
  }

  /// A number in `range`, or `fallback` when absent.
  public func number(_ key: String, in range: ClosedRange<Double>, default fallback: Double) throws(FilmError)
    -> Double
  {
    guard let value = values[key] else { return fallback }
    guard case .number(let v) = value, v.isFinite else { throw fail(key, "expected a number") }
    guard range.contains(v) else {
      throw fail(key, "\(v) is outside \(range.lowerBound) to \(range.upperBound)")
    }
    return v
  }

  /// `count` numbers, each in `range`, or `fallback` when absent.
  public func numbers(_ key: String, count: Int, in range: ClosedRange<Double>, default fallback: [Double]?)
    throws(FilmError) -> [Double]
  {
    guard let value = values[key] else {
      guard let fallback else { throw fail(key, "missing") }
      return fallback
    }
    guard case .array(let items) = value, items.count == count else {
      throw fail(key, "expected \(count) numbers")
    }
    var out: [Double] = []
    for (i, item) in items.enumerated() {
      guard case .number(let v) = item, v.isFinite else { throw fail("\(key)[\(i)]", "expected a number") }
      guard range.contains(v) else {
        throw fail("\(key)[\(i)]", "\(v) is outside \(range.lowerBound) to \(range.upperBound)")
      }
      out.append(v)
    }
    return out
  }

  /// A linear RGB colour, each channel 0…1, or `fallback` when absent.
  public func colour(_ key: String, default fallback: SIMD3<Float>) throws(FilmError) -> SIMD3<Float> {
    let c = try numbers(
      key, count: 3, in: 0...1, default: [Double(fallback.x), Double(fallback.y), Double(fallback.z)])
    return SIMD3(Float(c[0]), Float(c[1]), Float(c[2]))
  }

  /// A list of `[x, y]` pairs, each number in `range`.
  public func pairs(_ key: String, in range: ClosedRange<Double>) throws(FilmError) -> [SIMD2<Double>]? {
    guard let value = values[key] else { return nil }
    guard case .array(let items) = value else { throw fail(key, "expected a list of [x, y] pairs") }
    var out: [SIMD2<Double>] = []
    for (i, item) in items.enumerated() {
      guard case .array(let pair) = item, pair.count == 2, case .number(let x) = pair[0],
        case .number(let y) = pair[1],
        x.isFinite, y.isFinite
      else { throw fail("\(key)[\(i)]", "expected [x, y]") }
      guard range.contains(x), range.contains(y) else {
        throw fail("\(key)[\(i)]", "[\(x), \(y)] is outside \(range.lowerBound) to \(range.upperBound)")
      }
      out.append(SIMD2(x, y))
    }
    return out
  }

  /// A string among `choices`, or `fallback` when absent.
  public func choice(_ key: String, _ choices: [String], default fallback: String) throws(FilmError) -> String
  {
    guard let value = values[key] else { return fallback }
    guard case .string(let s) = value, choices.contains(s) else {
      throw fail(key, "expected one of \(choices.joined(separator: ", "))")
    }
    return s
  }

  /// A string, or nil when absent.
  public func string(_ key: String) throws(FilmError) -> String? {
    guard let value = values[key] else { return nil }
    guard case .string(let s) = value else { throw fail(key, "expected a string") }
    return s
  }

  /// Nested parameters (an object), or empty ones when absent.
  public func object(_ key: String) throws(FilmError) -> FilmParameters {
    guard let value = values[key] else {
      return FilmParameters(path: path, field: field + "." + key, values: [:])
    }
    guard case .object(let o) = value else { throw fail(key, "expected an object") }
    return FilmParameters(path: path, field: field + "." + key, values: o)
  }
}
