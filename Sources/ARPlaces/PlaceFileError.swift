import ARFiles
import ARGeo
import Foundation

/// Why a places file could not be read: the file, and the JSON path of the field at fault.
public enum PlaceFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read, or is not JSON.
  case unreadable(path: String, reason: String)
  /// A field is missing, of the wrong type or out of range: its JSON path (`features[3].geometry.coordinates`).
  case invalid(path: String, field: String, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .invalid(let path, let field, let reason): "\(path): \(field): \(reason)"
    }
  }
}
