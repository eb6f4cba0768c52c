/// Where and why decoding a JSON file failed, in words a user can act on: the field as a JSON
/// path (`objects[2].model`), or none when the text is not valid JSON at all.
public struct JSONDecodingFailure: Error, Sendable, Equatable {
  /// The JSON path of the field at fault; nil when the file is not JSON (syntax, truncation).
  public var field: String?
  /// Why, as a phrase (`missing`, `is null`, the parser's message).
  public var reason: String

  /// The failure `error` (a `DecodingError` from `JSONDecoder`, or any other error) describes.
  public init(_ error: any Error) {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      (field, reason) = (Self.fieldPath(context.codingPath + [key]), "missing")
    case DecodingError.typeMismatch(_, let context):
      (field, reason) = (Self.fieldPath(context.codingPath), context.debugDescription)
    case DecodingError.valueNotFound(_, let context):
      (field, reason) = (Self.fieldPath(context.codingPath), "is null")
    case DecodingError.dataCorrupted(let context):
      (field, reason) = (nil, context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    default:
      (field, reason) = (nil, "\(error)")
    }
  }

  /// A JSON path such as `objects[2].model` from decoding keys.
  public static func fieldPath(_ keys: [any CodingKey]) -> String {
    keys.reduce("") { path, key in
      if let index = key.intValue { return path + "[\(index)]" }
      return path.isEmpty ? key.stringValue : path + "." + key.stringValue
    }
  }
}
