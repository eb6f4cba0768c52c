/// Why a USDZ package or USD layer cannot be read: the file, where in it (a zip entry, a crate
/// section, a prim's path) and why.
public struct USDError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file read.
  public var path: String
  /// `zip`, a crate section (`TOKENS`, `PATHS`…), or a prim or property path (`/Cube/Cube.points`).
  public var place: String
  /// What is wrong there.
  public var reason: String

  /// The error of `path` at `place`.
  public init(path: String, place: String, reason: String) {
    self.path = path
    self.place = place
    self.reason = reason
  }

  public var description: String { place.isEmpty ? "\(path): \(reason)" : "\(path): \(place): \(reason)" }
}
