/// Why a snapshot could not be made, read or stored.
public enum SnapshotError: Error, Sendable, CustomStringConvertible {
  /// A reference image that is not a PNG this module reads: the file and what is wrong.
  case unreadableReference(path: String, reason: String)
  /// A file or folder that could not be written: the path and the system's reason.
  case unwritable(path: String, reason: String)
  /// A view that cannot be drawn: the view's size or scale is not whole pixels, or the renderer
  /// refused the scene (its reason).
  case unrenderable(String)

  public var description: String {
    switch self {
    case .unreadableReference(let path, let reason): "\(path): not a readable reference image: \(reason)"
    case .unwritable(let path, let reason): "\(path): cannot write: \(reason)"
    case .unrenderable(let reason): "cannot draw the view: \(reason)"
    }
  }
}
