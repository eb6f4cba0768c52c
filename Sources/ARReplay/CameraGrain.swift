import ARImage
import ARMath
import Foundation

/// The camera image's noise, given to the virtual content laid over it (RealityKit's camera
/// grain): rendered surfaces are otherwise cleaner than anything the camera sees, and stand out.
///
/// The noise is measured on each frame with Immerkær's estimator (J. Immerkær, "Fast noise
/// variance estimation", Computer Vision and Image Understanding 64(2), 1996: the image
/// convolved with the difference of two Laplacians, whose response to smooth shading is zero),
/// per channel and per brightness band, as a sensor's noise grows with its signal. The overlay's
/// pixels then get Gaussian noise of the band their own brightness falls in, in code values as
/// the camera's noise is, weighted by their coverage, seeded by the frame: the same bytes on
/// every run.
public struct CameraGrain: Sendable, Equatable {
  /// The added noise's standard deviation as a multiple of the camera's.
  public var strength: Double
  /// Seeds the noise together with the frame index.
  public var seed: UInt64

  /// Grain at `strength` (1 is the phone's measured noise), seeded by `seed`.
  public init(strength: Double = 1, seed: UInt64 = 0) {
    self.strength = strength
    self.seed = seed
  }

  /// Brightness bands the noise is measured in (a pixel's 3×3 mean, 0…255, in bands of 32).
  public static let bands = 8

  /// The noise of `image`: its standard deviation in 8-bit code values per channel (RGB), per
  /// brightness band; a band with too few pixels to measure takes its nearest measured
  /// neighbour's, and an image too small to measure gives zeros.
  public static func measure(_ image: RGBA8Image) -> [SIMD3<Double>] {
    let (w, h) = (image.width, image.height)
    var sums = [SIMD3<Double>](repeating: .zero, count: bands), counts = [Double](repeating: 0, count: bands)
    guard w >= 3, h >= 3 else { return sums }
    // Every other row is plenty for a camera frame's millions of pixels.
    for y in stride(from: 1, to: h - 1, by: 2) {
      for x in 1..<(w - 1) {
        var response = SIMD3<Double>.zero, mean = 0.0
        for dy in -1...1 {
          for dx in -1...1 {
            let p = image.pixels[(y + dy) * w + x + dx]
            let weight = Double(dx == 0 ? (dy == 0 ? 4 : -2) : (dy == 0 ? -2 : 1))
            response += SIMD3(Double(p.x), Double(p.y), Double(p.z)) * weight
            mean += (Double(p.x) + Double(p.y) + Double(p.z)) / 27
          }
        }
        let band = min(bands - 1, Int(mean / 32))
        sums[band] += SIMD3(abs(response.x), abs(response.y), abs(response.z))
        counts[band] += 1
      }
    }
    // σ = √(π/2) · mean |response| / 6 (the mask's gain on white noise).
    var sigma = (0..<bands).map { b in
      counts[b] >= 64 ? sums[b] / counts[b] * ((Double.pi / 2).squareRoot() / 6) : nil
    }
    let measured = sigma.indices.filter { sigma[$0] != nil }
    guard !measured.isEmpty else { return [SIMD3<Double>](repeating: .zero, count: bands) }
    for b in sigma.indices where sigma[b] == nil {
      let nearest = measured.min { abs($0 - b) < abs($1 - b) }!
      sigma[b] = sigma[nearest]
    }
    return sigma.map { $0! }
  }

  /// Adds grain of `noise` (from ``measure(_:)``, per band) to `image`'s pixels where `overlay`
  /// (the virtual content composited into it, straight alpha) covers it, weighted by coverage.
  public func apply(noise: [SIMD3<Double>], to image: inout RGBA8Image, overlay: RGBA8Image, frame: Int) {
    guard strength > 0, noise.count == Self.bands else { return }
    let w = image.width
    for y in 0..<image.height {
      var random = SplitMix64(
        seed: seed ^ (UInt64(truncatingIfNeeded: frame) &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(y))
      for x in 0..<w {
        let i = y * w + x
        let coverage = Double(overlay.pixels[i].w) / 255
        guard coverage > 0 else { continue }
        let p = image.pixels[i]
        let band = min(Self.bands - 1, (Int(p.x) + Int(p.y) + Int(p.z)) / 3 / 32)
        let sigma = noise[band] * strength * coverage
        var q = p
        for c in 0..<3 {
          let value = Double(p[c]) + sigma[c] * random.gaussian()
          q[c] = UInt8(min(255, max(0, value.rounded())))
        }
        image.pixels[i] = q
      }
    }
  }
}
