/// A 2-D image, row-major with the top row first (pixel `(x, y)` at `pixels[y * width + x]`),
/// matching the pixel convention of docs/CONVENTIONS.md.
///
/// The pixel type says the encoding: ``RGBA8Image`` holds sRGB-encoded 8-bit samples (as PNG
/// and JPEG files and camera frames carry them), ``RGBA16Image`` 16-bit samples, and
/// ``LinearImage`` linear-light floats for shading and compositing. Alpha is straight (not
/// premultiplied).
public struct Image<Pixel: Sendable & Hashable>: Sendable, Hashable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// The pixels, `width × height` of them, row by row from the top.
  public var pixels: [Pixel]

  /// An image filled with `fill`.
  public init(width: Int, height: Int, fill: Pixel) {
    precondition(width >= 0 && height >= 0, "image size must be non-negative")
    self.width = width
    self.height = height
    pixels = Array(repeating: fill, count: width * height)
  }

  /// An image from its pixels; `pixels.count` must be `width × height`.
  public init(width: Int, height: Int, pixels: [Pixel]) {
    precondition(
      width >= 0 && height >= 0 && pixels.count == width * height, "pixel count must be width × height")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The pixel at column `x`, row `y` (0-based, from the top-left).
  @inlinable
  public subscript(x: Int, y: Int) -> Pixel {
    get { pixels[y * width + x] }
    set { pixels[y * width + x] = newValue }
  }

  /// The image with every pixel transformed by `transform`.
  public func map<T>(_ transform: (Pixel) -> T) -> Image<T> {
    Image<T>(width: width, height: height, pixels: pixels.map(transform))
  }
}

/// 8-bit RGBA, sRGB-encoded colour, straight alpha: PNG/JPEG files, camera frames, output.
public typealias RGBA8Image = Image<SIMD4<UInt8>>
/// 16-bit RGBA (PNG's 16-bit depth), encoding as the file says (sRGB unless stated).
public typealias RGBA16Image = Image<SIMD4<UInt16>>
/// Linear-light RGBA in floats (1 = full intensity), straight alpha: shading and compositing.
public typealias LinearImage = Image<SIMD4<Float>>
/// Distances in metres, one a pixel (`.infinity` where nothing is): a rendered frame's depth.
public typealias DepthImage = Image<Float>

extension Image where Pixel == SIMD4<UInt8> {
  /// The image with each colour multiplied by its alpha (rounded), as premultiplied-alpha
  /// consumers expect; opaque pixels are unchanged.
  public var premultiplied: RGBA8Image {
    RGBA8Image(
      width: width, height: height,
      pixels: pixels.map { p in
        guard p.w != 255 else { return p }
        let a = UInt16(p.w)
        func scaled(_ c: UInt8) -> UInt8 { UInt8((UInt16(c) * a + 127) / 255) }
        return SIMD4(scaled(p.x), scaled(p.y), scaled(p.z), p.w)
      })
  }
}
