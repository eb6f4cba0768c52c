/// One line of an MTL file: its keyword, its arguments, and where it is, for messages.
struct MTLStatement {
  let keyword: String
  let args: [Substring]
  let path: String
  let line: Int
  /// The 1-based column of the first argument.
  let column: Int

  /// The statement on `rawLine` (comments and a trailing CR stripped), or nil for a blank line.
  /// - Throws: ``OBJError/encoding(path:line:column:reason:)`` for control characters (binary
  ///   data).
  init?(_ rawLine: Substring, path: String, line: Int) throws(OBJError) {
    var text = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
    if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    guard let first = fields.first else { return nil }
    if let bad = text.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" }) {
      throw .encoding(
        path: path, line: line, column: 1,
        reason: "binary data (byte 0x\(String(bad.value, radix: 16))); not an MTL text file")
    }
    keyword = String(first)
    args = Array(fields.dropFirst())
    self.path = path
    self.line = line
    column = text.distance(from: text.startIndex, to: first.endIndex) + 2
  }

  /// The arguments as finite numbers, their count in `allowed`.
  func numbers(_ allowed: ClosedRange<Int>) throws(OBJError) -> [Float] {
    guard allowed.contains(args.count) else {
      throw .badArity(
        path: path, line: line, column: column, statement: keyword,
        expected: allowed.count == 1
          ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)",
        got: args.count)
    }
    var out: [Float] = []
    for a in args {
      guard let v = Double(a), v.isFinite else { throw badNumber(String(a)) }
      out.append(Float(v))
    }
    return out
  }

  /// An RGB colour: one number (grey), or three (`spectral` and `xyz` forms are refused).
  func color() throws(OBJError) -> SIMD3<Float> {
    if args.first == "spectral" || args.first == "xyz" { throw badNumber(args.joined(separator: " ")) }
    let v = try numbers(1...3)
    return v.count == 1
      ? SIMD3(repeating: v[0]) : (v.count == 3 ? SIMD3(v[0], v[1], v[2]) : SIMD3(v[0], v[1], v[1]))
  }

  /// The error for `text`, a bad number on this line.
  func badNumber(_ text: String) -> OBJError {
    .badNumber(path: path, line: line, column: column, text: text)
  }
}
