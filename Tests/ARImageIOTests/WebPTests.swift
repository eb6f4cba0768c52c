import ARImage
import ARTestSupport
import Foundation
import Testing

@testable import ARImageIO

/// WebP images against the pictures they were encoded from: glTF-Transform's test image (a
/// lossless and a lossy WebP of `test.png`) and Blender's glTF exports (WebP of its own PNGs,
/// one with an alpha channel), Tests/Fixtures/images/webp and gltf/webp.
@Suite("WebP")
struct WebPTests {
  static func file(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(relative))))
  }

  /// The mean absolute difference of the colour channels where `reference` is not transparent,
  /// and the largest alpha difference anywhere.
  static func difference(_ ours: RGBA8Image, _ reference: RGBA8Image) -> (colour: Double, alpha: Int) {
    var (sum, count, alpha) = (0, 0, 0)
    for (a, b) in zip(ours.pixels, reference.pixels) {
      alpha = max(alpha, abs(Int(a.w) - Int(b.w)))
      guard b.w > 0 else { continue }
      for c in 0..<3 { sum += abs(Int(a[c]) - Int(b[c])) }
      count += 3
    }
    return (Double(sum) / Double(max(count, 1)), alpha)
  }

  @Test(
    "a lossless WebP (VP8L) holds its PNG's pixels exactly; the lossy one (VP8) is within 5 levels on average"
  )
  func glTFTransformImages() throws {
    let png = try ImageFile.decodeRGBA8(try Self.file("images/webp/test.png"), name: "test.png")
    let lossless = try ImageFile.readRGBA8(Fixtures.path("images/webp/test-lossless.webp"))
    #expect(lossless.width == 256 && lossless.height == 256)
    // The lossless file's alpha is all 255: compare colours alone, exactly.
    let differing = zip(lossless.pixels, png.pixels).filter { $0.0[SIMD3(0, 1, 2)] != $0.1[SIMD3(0, 1, 2)] }
    #expect(differing.isEmpty, "\(differing.count) pixels differ from test.png")
    let lossy = try WebP.decodeRGBA8(try Self.file("images/webp/test-lossy.webp"))
    #expect(lossy.width == 256 && lossy.height == 256)
    #expect(lossy.pixels.allSatisfy { $0.w == 255 })
    let error = Self.difference(lossy, png).colour
    #expect(error > 0 && error < 5, "mean error \(error)")
  }

  @Test(
    "Blender's WebP textures (lossy colour, lossless alpha in VP8X+ALPH) match the PNGs they were encoded from",
    arguments: [("grid", 5.0), ("disc", 1.0)])
  func blenderTextures(name: String, meanError: Double) throws {
    let ours = try ImageFile.readRGBA8(Fixtures.path("gltf/webp/files/\(name).webp"))
    let reference = try ImageFile.readRGBA8(Fixtures.path("gltf/webp/\(name).png"))
    #expect(ours.width == reference.width && ours.height == reference.height)
    let (colour, alpha) = Self.difference(ours, reference)
    #expect(colour < meanError, "mean colour error \(colour)")
    #expect(alpha == 0, "alpha differs by up to \(alpha)")
    if name == "disc" {
      // Transparent around the disc, its alpha rising from left to right: read the right way up.
      #expect(ours[0, 0].w == 0)
      #expect(ours[16, 32].w < ours[48, 32].w)
    }
  }

  @Test("truncated, damaged and animated WebPs are refused with the reason, never a partial image")
  func refusals() throws {
    let lossy = try Self.file("images/webp/test-lossy.webp")
    func reason(_ bytes: [UInt8]) -> String? {
      do {
        _ = try ImageFile.decodeRGBA8(bytes, name: "x.webp")
        return nil
      } catch {
        guard case .invalid(let path, let format, let reason) = error, path == "x.webp", format == "WebP"
        else {
          return "\(error)"
        }
        return reason
      }
    }
    #expect(reason(Array(lossy.prefix(lossy.count / 2)))?.contains("truncated") == true)
    #expect(reason(Array(lossy.prefix(20))) != nil)
    var damaged = lossy
    for i in stride(from: 40, to: damaged.count, by: 7) { damaged[i] ^= 0x5A }
    #expect(reason(damaged) != nil)
    let animated = try Self.file("images/webp/animated-16x16.webp")
    #expect(reason(animated) == "an animated WebP (16x16); ARScene reads still images")
    // A RIFF file of another form (a WAVE) is not taken for a WebP.
    let wave = Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8) + [UInt8](repeating: 0, count: 32)
    #expect(!WebP.isWebP(wave))
    #expect(throws: ImageError.unknownFormat(path: "x.wav")) {
      try ImageFile.decodeRGBA8(wave, name: "x.wav")
    }
  }
}
