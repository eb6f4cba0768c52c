import ARMath
import Foundation

/// Where and why decoding a JSON file failed, in words a user can act on: the field as a JSON
/// path (`objects[2].model`), or the line and column of a syntax error.
package struct JSONDecodingFailure: Error, Sendable, Equatable {
  /// The JSON path of the field at fault, or `line L, column C` when the text is not JSON;
  /// nil when not even that is known.
  package var field: String?
  /// Why, as a phrase (`missing`, `is null`, `expected a number, found a string`).
  package var reason: String

  /// The failure `error` (a `DecodingError` from `JSONDecoder`, an error of
  /// `JSONSerialization`, or any other error) describes; `bytes`, the document, places a
  /// syntax error by line and column.
  package init(_ error: any Error, bytes: [UInt8]? = nil) {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      (field, reason) = (Self.fieldPath(context.codingPath + [key]), "missing")
    case DecodingError.typeMismatch(let type, let context):
      (field, reason) = (
        Self.fieldPath(context.codingPath), Self.mismatch(expected: type, context.debugDescription)
      )
    case DecodingError.valueNotFound(_, let context):
      (field, reason) = (Self.fieldPath(context.codingPath), "is null")
    case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
      (field, reason) = (Self.fieldPath(context.codingPath), Self.quoted(context.debugDescription))
    case DecodingError.dataCorrupted(let context):
      (field, reason) = Self.syntax(context.underlyingError ?? error, bytes: bytes)
    default:
      (field, reason) = Self.syntax(error, bytes: bytes)
    }
  }

  /// A JSON path such as `objects[2].model` from decoding keys.
  package static func fieldPath(_ keys: [any CodingKey]) -> String {
    keys.reduce("") { path, key in
      if let index = key.intValue { return path + "[\(index)]" }
      return path.isEmpty ? key.stringValue : path + "." + key.stringValue
    }
  }

  /// "expected a number, found a string": the Swift type said as JSON's.
  static func mismatch(expected type: Any.Type, _ description: String) -> String {
    let name = String(describing: type)
    let expected: String
    switch name {
    case "Int", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": expected = "a whole number"
    case "Double", "Float": expected = "a number"
    case "String": expected = "a string"
    case "Bool": expected = "true or false"
    case _ where name.hasPrefix("Dictionary") || name.contains("KeyedDecodingContainer"):
      expected = "an object"
    case _ where name.hasPrefix("Array") || name.contains("UnkeyedDecodingContainer"): expected = "an array"
    default: expected = "a value of another kind"
    }
    // Foundation says "… but found a string instead." (or "found number instead").
    guard let found = description.range(of: "found "), let end = description.range(of: " instead") else {
      return "expected \(expected)"
    }
    var what = String(description[found.upperBound..<end.lowerBound])
    if !what.hasPrefix("a ") && !what.hasPrefix("an ") && what != "null" {
      what = (what.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + what
    }
    return "expected \(expected), found \(what)"
  }

  /// A syntax error placed by line and column, from the character offset Foundation reports.
  static func syntax(_ error: any Error, bytes: [UInt8]?) -> (String?, String) {
    var message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    // JSONDecoder keeps no offset: the serialiser, given the same text, says where.
    if characterOffset(in: message) == nil, let bytes {
      do { _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) } catch {
        message = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? message
      }
    }
    guard let bytes else { return (nil, "not valid JSON (\(quoted(message)))") }
    guard let offset = Self.characterOffset(in: message) else {
      // A truncated file: the error is where the text ends.
      let end = Self.place(offset: .max, in: bytes)
      return ("line \(end.line), column \(end.column)", "not valid JSON: \(quoted(Self.lowerFirst(message)))")
    }
    let (line, column, text) = Self.place(offset: offset, in: bytes)
    let what = message.components(separatedBy: " around").first ?? message
    return ("line \(line), column \(column)", "not valid JSON: \(Self.lowerFirst(what)) at '\(quoted(text))'")
  }

  /// N of "… around character N." (or "… around line L, column C." in newer Foundations, as an
  /// offset is then not needed).
  static func characterOffset(in message: String) -> Int? {
    guard let range = message.range(of: "character ") else { return nil }
    return Int(message[range.upperBound...].prefix { $0.isNumber })
  }

  /// The 1-based line and column of character `offset` (0-based, in Unicode scalars) and the
  /// text from there to the end of its line.
  static func place(offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int, text: String) {
    let text = String(decoding: bytes, as: UTF8.self)
    var line = 1, column = 1, seen = 0
    var index = text.unicodeScalars.startIndex
    while index < text.unicodeScalars.endIndex, seen < offset {
      if text.unicodeScalars[index] == "\n" { (line, column) = (line + 1, 1) } else { column += 1 }
      seen += 1
      index = text.unicodeScalars.index(after: index)
    }
    let rest = String(text.unicodeScalars[index...].prefix { $0 != "\n" })
    return (line, column, rest)
  }

  /// `text` with its first letter in lower case, to follow a colon.
  static func lowerFirst(_ text: String) -> String { text.prefix(1).lowercased() + text.dropFirst() }

  /// At most 60 characters of `text`, marked as cut when longer: errors never echo a whole field.
  package static func quoted(_ text: String) -> String { text.quotedForMessage }
}
