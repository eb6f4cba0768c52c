/// Why an image could not be read or written. `path` is the file when there is one.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read (missing, a directory, no permission).
  case unreadable(path: String, reason: String)
  /// The bytes are not a valid image of the format (`PNG`, `JPEG`, `KTX2`, `WebP`), as the codec says.
  case invalid(path: String?, format: String, reason: String)
  /// The file's format is not one ARScene reads (by its first bytes).
  case unknownFormat(path: String)
  /// The image could not be encoded or written.
  case unwritable(path: String?, reason: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): cannot read: \(reason)"
    case .invalid(let path, let format, let reason): "\(path ?? "image"): invalid \(format): \(reason)"
    case .unknownFormat(let path): "\(path): not a PNG, JPEG, KTX2 or WebP image"
    case .unwritable(let path, let reason): "\(path ?? "image"): cannot write: \(reason)"
    }
  }
}
