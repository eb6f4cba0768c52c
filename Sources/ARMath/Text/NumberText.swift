/// Numbers as people type them at the edges: comma lists on the command line (`500,500,320,240`)
/// and lines of columns on standard input (`1.5 2 -3`, spaces or commas). Every failure names the
/// source, the line and the field, so a user can find the bad number.
public enum NumberText {
  /// Parses a comma-separated list such as `--intrinsics 500,500,320,240`.
  ///
  /// - Parameters:
  ///   - text: The list; spaces around the commas are allowed.
  ///   - count: The required number of values, or `nil` for any.
  ///   - name: What the list is (an option name), for the error message.
  /// - Throws: ``NumberTextError`` for a wrong count or a value that is not a finite number.
  public static func parseList(_ text: String, count: Int?, name: String) throws(NumberTextError) -> [Double]
  {
    let fields = text.split(separator: ",", omittingEmptySubsequences: false)
    if let count, fields.count != count {
      throw .wrongCount(source: name, line: nil, expected: count, got: fields.count)
    }
    var values: [Double] = []
    values.reserveCapacity(fields.count)
    for (index, field) in fields.enumerated() {
      values.append(try number(field, source: name, line: nil, field: index + 1))
    }
    return values
  }

  /// Parses one line of `columns` numbers separated by spaces, tabs or commas.
  ///
  /// - Parameters:
  ///   - line: The text of the line.
  ///   - columns: How many numbers it must hold.
  ///   - source: The file or stream, for errors.
  ///   - lineNumber: The 1-based line number, for errors.
  ///   - extraColumns: Allow (and ignore) columns after the first `columns`, as formats with
  ///     optional trailing columns have them (EuRoC's ground truth adds velocities and biases).
  /// - Returns: The numbers, or `nil` for a blank line or a comment (`#` first).
  /// - Throws: ``NumberTextError`` naming `source`, `lineNumber` and the 1-based field.
  public static func parseLine(
    _ line: some StringProtocol, columns: Int, source: String, lineNumber: Int, extraColumns: Bool = false
  ) throws(NumberTextError) -> [Double]? {
    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\r" })
    guard let first = fields.first, !first.hasPrefix("#") else { return nil }
    guard fields.count == columns || (extraColumns && fields.count > columns) else {
      throw .wrongCount(source: source, line: lineNumber, expected: columns, got: fields.count)
    }
    var values: [Double] = []
    values.reserveCapacity(columns)
    for (index, field) in fields.prefix(columns).enumerated() {
      values.append(try number(field, source: source, line: lineNumber, field: index + 1))
    }
    return values
  }

  /// ``parseLine(_:columns:source:lineNumber:extraColumns:)`` on the bytes of a line, without
  /// making a `String`: for files of many lines (trajectories, recordings). With `fewerColumns`,
  /// lines of that many columns up to `columns` are accepted too (layouts with optional columns).
  ///
  /// - Returns: The numbers, or `nil` for a blank line or a comment (`#` first).
  public static func parseLine(
    bytes line: UnsafeBufferPointer<UInt8>, columns: Int, source: String, lineNumber: Int,
    extraColumns: Bool = false, fewerColumns: Int? = nil
  ) throws(NumberTextError) -> [Double]? {
    guard let p = line.baseAddress else { return nil }
    let end = line.count
    @inline(__always) func isSeparator(_ c: UInt8) -> Bool {
      c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: ",") || c == UInt8(ascii: "\r")
    }
    var values: [Double] = []
    values.reserveCapacity(columns)
    var i = 0, fields = 0
    while true {
      while i < end && isSeparator(p[i]) { i += 1 }
      guard i < end else { break }
      if fields == 0 && p[i] == UInt8(ascii: "#") { return nil }
      fields += 1
      var tokenEnd = i
      while tokenEnd < end && !isSeparator(p[tokenEnd]) { tokenEnd += 1 }
      if fields <= columns {
        if let (value, next) = DecimalParser.parse(p, from: i, to: tokenEnd, comma: true), next == tokenEnd {
          values.append(value)
        } else {
          // The slow way, for its exact error (not a number, or not finite).
          let text = String(decoding: UnsafeBufferPointer(start: p + i, count: tokenEnd - i), as: UTF8.self)
          values.append(try number(text, source: source, line: lineNumber, field: fields))
        }
      }
      i = tokenEnd
    }
    guard fields > 0 else { return nil }
    guard
      fields == columns || (extraColumns && fields > columns)
        || (fewerColumns.map { (($0)...columns).contains(fields) } ?? false)
    else {
      throw .wrongCount(source: source, line: lineNumber, expected: columns, got: fields)
    }
    return values
  }

  /// One finite number, or an error that says where it was.
  static func number(_ text: some StringProtocol, source: String, line: Int?, field: Int)
    throws(NumberTextError) -> Double
  {
    let trimmed = text.trimmingSpaces
    guard let value = Double(trimmed) else {
      throw .notANumber(source: source, line: line, field: field, text: String(trimmed))
    }
    guard value.isFinite else {
      throw .notFinite(source: source, line: line, field: field, text: String(trimmed))
    }
    return value
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: SubSequence {
    let isSpace = { (c: Character) in c == " " || c == "\t" }
    guard let start = firstIndex(where: { !isSpace($0) }) else { return self[endIndex...] }
    let end = lastIndex(where: { !isSpace($0) })!
    return self[start...end]
  }
}
