import ARFiles
import ARMesh
import Foundation

/// Why a scene file cannot be rendered. `field` is a JSON path such as `objects[2].model`.
public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The scene file cannot be read.
  case unreadable(path: String, reason: String)
  /// The file is not JSON a scene can be.
  case invalidJSON(path: String, reason: String)
  /// A field's value is wrong (its JSON path in `field`).
  case invalidField(path: String, field: String, reason: String)
  /// An object's model cannot be loaded (the object's field, the model's reason).
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
  /// The error for a JSON decoding failure of the file at `path` (whose text is `bytes`),
  /// naming the field, or the line and column of a syntax error.
  init(decoding error: any Error, path: String, bytes: [UInt8]? = nil) {
    let failure = JSONDecodingFailure(error, bytes: bytes)
    if let field = failure.field {
      self = .invalidField(path: path, field: field, reason: failure.reason)
    } else {
      self = .invalidJSON(path: path, reason: failure.reason)
    }
  }
}

extension SceneError {
  /// A point file's error, as the scene reports it (naming the point file and its field).
  init(_ error: PointSetError) {
    switch error {
    case .unreadable(let path, let reason): self = .unreadable(path: path, reason: reason)
    case .invalid(let path, let field?, let reason):
      self = .invalidField(path: path, field: field, reason: reason)
    case .invalid(let path, nil, let reason): self = .invalidJSON(path: path, reason: reason)
    }
  }
}
