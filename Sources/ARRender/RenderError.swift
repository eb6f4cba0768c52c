/// Why a frame could not be rendered.
public enum RenderError: Error, Equatable, CustomStringConvertible {
  /// The image size is not positive, or too large to allocate.
  case invalidSize(width: Int, height: Int)
  /// A setting is out of its range (named in the text).
  case invalidSettings(String)
  /// A value the renderer was given is NaN or infinite (named in the text).
  case notFinite(String)
  /// A texture a material names has no image, or is too large to sample.
  case invalidTexture(path: String, reason: String)

  public var description: String {
    switch self {
    case .invalidSize(let w, let h):
      "output size \(w)×\(h) is outside 1…\(RenderSettings.maximumSide) per side"
    case .invalidSettings(let why): why
    case .notFinite(let what): "\(what) has a NaN or infinite value"
    case .invalidTexture(let path, let reason): "\(path): \(reason)"
    }
  }
}
