import CPROJ

/// Why a coordinate operation could not be made or applied.
public enum CRSError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A CRS PROJ does not know (an unknown EPSG code, a malformed definition).
  case unknownCRS(String, reason: String)
  /// No operation between the two CRSs.
  case noOperation(from: String, to: String, reason: String)
  /// A coordinate the operation cannot transform (outside the CRS's domain, not finite).
  case untransformable([Double], reason: String)

  public var description: String {
    switch self {
    case .unknownCRS(let crs, let reason): "unknown CRS '\(crs)' (\(reason))"
    case .noOperation(let from, let to, let reason): "no operation from \(from) to \(to) (\(reason))"
    case .untransformable(let values, let reason):
      "cannot transform \(values.map { String($0) }.joined(separator: " ")) (\(reason))"
    }
  }
}
