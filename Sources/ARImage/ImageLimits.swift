/// How large an image ARScene decodes: a budget held against an image file's header (and a
/// video's frame size) before anything is allocated, so that a valid 3.5 MB PNG of 60000×60000
/// pixels is a clear error rather than a 14 GB allocation that ends the process.
public enum ImageLimits {
  /// The default budget, pixels: 100 megapixels, eight times a 12 MP phone photo and twice a
  /// 48 MP one (400 MB as 8-bit RGBA, 1.6 GB as linear floating point).
  public static let defaultMaximumPixels = 100_000_000

  nonisolated(unsafe) private static var configured: Int?

  /// The most pixels (width × height) an image may have. By default
  /// ``defaultMaximumPixels``, or the environment's `ARSCENE_MAX_IMAGE_PIXELS` (a positive whole
  /// number); set it before decoding to raise or lower it for the whole process.
  public static var maximumPixels: Int {
    get {
      if let configured { return configured }
      let fromEnvironment = environmentValue("ARSCENE_MAX_IMAGE_PIXELS").flatMap { Int($0) }.flatMap {
        $0 > 0 ? $0 : nil
      }
      return fromEnvironment ?? defaultMaximumPixels
    }
    set { configured = max(1, newValue) }
  }

  /// Why a `width × height` image is refused, or nil when it is within the budget.
  public static func problem(width: Int, height: Int) -> String? {
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard overflow || pixels > maximumPixels else { return nil }
    return
      "\(width)×\(height) is more pixels than the image budget of \(maximumPixels) (ARSCENE_MAX_IMAGE_PIXELS raises it)"
  }

  private static func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
