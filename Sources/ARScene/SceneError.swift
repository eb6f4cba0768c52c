/// Why a scene file cannot be rendered. `field` is a JSON path such as `objects[2].model`.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
  case unreadable(path: String, reason: String)
  case invalidJSON(path: String, reason: String)
  case invalidField(path: String, field: String, reason: String)
  case model(path: String, field: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalidJSON(let path, let reason): "\(path): \(reason)"
    case .invalidField(let path, let field, let reason): "\(path): \(field): \(reason)"
    case .model(let path, let field, let reason): "\(path): \(field): \(reason)"
    }
  }
}
