import ARImage

/// How far an image may stray from its reference and still match: a pixel counts as different
/// when any of its channels (red, green, blue, alpha; 0–255) differs by more than
/// ``channelTolerance``, and the images match when no more than ``maximumFractionDifferent``
/// of the pixels differ.
///
/// The default, 5/255 on at most 0.01% of the pixels, is ten times stricter than Filament's
/// render-diff gate (5/255 and 0.1%): it absorbs what may differ between CPU architectures (a
/// last bit of a `Float` in the math library's `pow` or `exp`, which rounds to the same 8-bit
/// value or one next to it, and at most a few edge pixels whose coverage flips), and fails a
/// target moved by 2 mm from 30 cm or a label moved by one point, which change a hundred pixels
/// or more by far more than 5/255 (0.06% of a 6.1-inch phone's screen for a three-letter label).
public struct SnapshotGates: Sendable, Hashable, CustomStringConvertible {
  /// The largest difference of a channel (of 255) that does not count.
  public var channelTolerance: Int
  /// The share of pixels (0–1) that may differ by more.
  public var maximumFractionDifferent: Double

  /// Gates of `channelTolerance` (0–255) and `maximumFractionDifferent` (0–1).
  public init(channelTolerance: Int = 5, maximumFractionDifferent: Double = 0.0001) {
    self.channelTolerance = min(max(channelTolerance, 0), 255)
    self.maximumFractionDifferent = min(max(maximumFractionDifferent, 0), 1)
  }

  /// 5/255 on at most 0.01% of the pixels (ten times stricter than Filament's render-diff gate).
  public static let standard = SnapshotGates()
  /// Filament's render-diff gate: 5/255 on at most 0.1% of the pixels.
  public static let filament = SnapshotGates(channelTolerance: 5, maximumFractionDifferent: 0.001)
  /// Every byte the same.
  public static let exact = SnapshotGates(channelTolerance: 0, maximumFractionDifferent: 0)

  public var description: String {
    "\(channelTolerance)/255 on \(maximumFractionDifferent * 100)% of the pixels"
  }
}

/// How an image differs from its reference: the figures a failure reports, and an image
/// showing where.
public struct SnapshotDifference: Sendable, Equatable {
  /// The reference's size and the image's, pixels (width, height).
  public var referenceSize: SIMD2<Int>
  /// The compared image's size.
  public var actualSize: SIMD2<Int>
  /// The largest difference of any channel of any pixel (0–255); 255 when the sizes differ.
  public var largestChannelDifference: Int
  /// Pixels differing by more than the gates' tolerance.
  public var pixelsDifferent: Int
  /// Pixels compared.
  public var pixelCount: Int
  /// The gates applied.
  public var gates: SnapshotGates

  /// `pixelsDifferent / pixelCount`; 1 when the sizes differ.
  public var fractionDifferent: Double {
    referenceSize != actualSize ? 1 : Double(pixelsDifferent) / Double(max(pixelCount, 1))
  }

  /// Whether the image matches its reference under ``gates``.
  public var matches: Bool {
    referenceSize == actualSize && fractionDifferent <= gates.maximumFractionDifferent
  }

  /// The figures, for a failure's message.
  public var summary: String {
    if referenceSize != actualSize {
      return
        "the image is \(actualSize.x)×\(actualSize.y) pixels, the reference \(referenceSize.x)×\(referenceSize.y)"
    }
    let percent = (fractionDifferent * 100 * 1000).rounded() / 1000
    return
      "\(pixelsDifferent) of \(pixelCount) pixels (\(percent)%) differ by more than \(gates.channelTolerance)/255 "
      + "(at most \(gates.maximumFractionDifferent * 100)% may); the largest difference is \(largestChannelDifference)/255"
  }

  /// `actual` against `reference` under `gates`.
  public init(_ actual: RGBA8Image, against reference: RGBA8Image, gates: SnapshotGates = .standard) {
    referenceSize = SIMD2(reference.width, reference.height)
    actualSize = SIMD2(actual.width, actual.height)
    self.gates = gates
    pixelCount = actual.pixels.count
    guard referenceSize == actualSize else {
      (largestChannelDifference, pixelsDifferent) = (255, pixelCount)
      return
    }
    var largest = 0, different = 0
    for (a, b) in zip(actual.pixels, reference.pixels) {
      let d = Self.largestChannelDifference(a, b)
      largest = max(largest, d)
      if d > gates.channelTolerance { different += 1 }
    }
    (largestChannelDifference, pixelsDifferent) = (largest, different)
  }

  /// An image of where `actual` and `reference` differ: the reference faded to a quarter of its
  /// grey, pixels past the tolerance in magenta, brighter the larger the difference, smaller
  /// differences in dim cyan. Sizes that differ are compared over their common part.
  public static func image(
    _ actual: RGBA8Image, against reference: RGBA8Image, gates: SnapshotGates = .standard
  )
    -> RGBA8Image
  {
    let width = min(actual.width, reference.width), height = min(actual.height, reference.height)
    var pixels: [SIMD4<UInt8>] = []
    pixels.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let a = actual.pixels[y * actual.width + x], b = reference.pixels[y * reference.width + x]
        let d = largestChannelDifference(a, b)
        let grey = UInt8((Int(b.x) + Int(b.y) + Int(b.z)) / 12)
        if d > gates.channelTolerance {
          let level = UInt8(128 + min(127, d / 2))
          pixels.append(SIMD4(level, 0, level, 255))
        } else if d > 0 {
          pixels.append(SIMD4(grey, grey &+ 64, grey &+ 64, 255))
        } else {
          pixels.append(SIMD4(grey, grey, grey, 255))
        }
      }
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  static func largestChannelDifference(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> Int {
    let d = SIMD4<Int16>(truncatingIfNeeded: a) &- SIMD4<Int16>(truncatingIfNeeded: b)
    return Int(max(abs(d.x), abs(d.y), abs(d.z), abs(d.w)))
  }
}
