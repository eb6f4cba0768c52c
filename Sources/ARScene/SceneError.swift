import Foundation

/// Why a scene file cannot be rendered. `field` is a JSON path such as `objects[2].model`.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case invalidJSON(path: String, reason: String)
  case invalidField(path: String, field: String, reason: String)
  case model(path: String, field: String, reason: String)
  /// The scene loaded, but its frame could not be rendered (the renderer says why).
  case render(path: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalidJSON(let path, let reason): "\(path): \(reason)"
    case .invalidField(let path, let field, let reason): "\(path): \(field): \(reason)"
    case .model(let path, let field, let reason): "\(path): \(field): \(reason)"
    case .render(let path, let reason): "\(path): cannot render: \(reason)"
    }
  }
}

extension SceneError {
  /// The error for a JSON decoding failure of the file at `path`, naming the field.
  init(decoding error: any Error, path: String) {
    switch error {
    case DecodingError.keyNotFound(let key, let context):
      self = .invalidField(path: path, field: Self.fieldPath(context.codingPath + [key]), reason: "missing")
    case DecodingError.typeMismatch(_, let context):
      self = .invalidField(
        path: path, field: Self.fieldPath(context.codingPath), reason: context.debugDescription)
    case DecodingError.valueNotFound(_, let context):
      self = .invalidField(path: path, field: Self.fieldPath(context.codingPath), reason: "is null")
    case DecodingError.dataCorrupted(let context):
      self = .invalidJSON(
        path: path, reason: context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    default:
      self = .invalidJSON(path: path, reason: "\(error)")
    }
  }

  /// A JSON path such as `objects[2].model` from decoding keys.
  static func fieldPath(_ keys: [any CodingKey]) -> String {
    keys.reduce("") { path, key in
      if let index = key.intValue { return path + "[\(index)]" }
      return path.isEmpty ? key.stringValue : path + "." + key.stringValue
    }
  }
}
