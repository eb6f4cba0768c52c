import ARImage
import ARImageIO
import ARMath
import ARSnapshotTesting
import ARTestSupport
import Foundation
import Testing

/// The Swift-only PNG codec against libpng (ARImageIO's codec): what one writes the other reads
/// to the same pixels, in every layout libpng writes, and damaged files are refused by name.
@Suite("PortablePNG")
struct PortablePNGTests {
  /// A seeded image with flat areas (which the LZ77 matches find), gradients and noise.
  static func image(width: Int, height: Int, seed: UInt64) -> RGBA8Image {
    var random = SplitMix64(seed: seed)
    let pixels = (0..<(width * height)).map { i -> SIMD4<UInt8> in
      let (x, y) = (i % width, i / width)
      if x < width / 3 { return SIMD4(38, 42, 48, 255) }
      if x < 2 * width / 3 {
        return SIMD4(UInt8(x % 256), UInt8(y % 256), UInt8((x + y) % 256), UInt8(128 + y % 128))
      }
      return SIMD4(
        UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random), 7, 255)
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  @Test("ours, read by libpng: the same pixels, seeded sizes from 1×1 up")
  func oursReadByLibPNG() throws {
    for (width, height, seed) in [(1, 1, 1), (3, 2, 2), (97, 41, 3), (390, 300, 4)] as [(Int, Int, UInt64)] {
      let image = Self.image(width: width, height: height, seed: seed)
      let encoded = PortablePNG.encode(image)
      let decoded = try PNG.decodeRGBA8(encoded)
      #expect(decoded == image, "\(width)×\(height)")
      #expect(try PortablePNG.decode(encoded, path: "ours.png") == image)
    }
  }

  @Test(
    "libpng's files, read by ours: RGBA, RGB, grey, 16-bit, at every compression level",
    arguments: [0, 1, 6, 9])
  func libPNGReadByOurs(level: Int) throws {
    let image = Self.image(width: 123, height: 77, seed: UInt64(level) + 10)
    for channels in PNG.Channels.allCases {
      let encoded = try PNG.encode(image, channels: channels, compression: level)
      let expected = try PNG.decodeRGBA8(encoded)
      #expect(
        try PortablePNG.decode(encoded, path: "libpng.png") == expected, "\(channels) at level \(level)")
    }
    let wide = RGBA16Image(
      width: 50, height: 20,
      pixels: image.pixels.prefix(1000).map { SIMD4<UInt16>(truncatingIfNeeded: $0) &* 257 &+ 3 })
    let encoded16 = try PNG.encode(wide, channels: .rgba, compression: level)
    #expect(try PortablePNG.decode(encoded16, path: "16.png") == PNG.decodeRGBA8(encoded16))
  }

  @Test("the shipped textures (libpng's files, dynamic Huffman blocks): the pixels libpng reads")
  func shippedTextures() throws {
    let folder = "Scenes/models/textures"
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
    #expect(names.count == 5)
    for name in names {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
      #expect(try PortablePNG.decode(bytes, path: name) == PNG.decodeRGBA8(bytes), "\(name)")
    }
  }

  @Test("damaged files are refused naming the file and the fault; none crashes")
  func damaged() throws {
    let good = PortablePNG.encode(Self.image(width: 40, height: 30, seed: 7))
    var badCRC = good
    badCRC[20] ^= 1
    var interlaced = good
    interlaced[28] = 1  // IHDR's interlace byte (its CRC then fails first: fix it up)
    let body = Array(interlaced[12..<29])
    let crc = Self.crc(body)
    interlaced[29...32] = [
      UInt8(crc >> 24), UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 8),
      UInt8(truncatingIfNeeded: crc),
    ]
    let cases: [([UInt8], String)] = [
      (Array(good.prefix(good.count / 2)), "truncated"),
      (badCRC, "fails its CRC"),
      (Array("not a png".utf8), "not a PNG file"),
      (interlaced, "interlaced"),
    ]
    for (bytes, reason) in cases {
      #expect {
        _ = try PortablePNG.decode(bytes, path: "ref.png")
      } throws: { error in
        "\(error)".contains("ref.png") && "\(error)".contains(reason)
      }
    }
    // Every truncation and a seeded spray of flipped bytes: an error or an image, never a crash.
    var random = SplitMix64(seed: 99)
    for length in stride(from: 0, to: good.count, by: 7) {
      _ = try? PortablePNG.decode(Array(good.prefix(length)), path: "t")
    }
    for _ in 0..<300 {
      var bytes = good
      for _ in 0..<3 {
        bytes[Int.random(in: 33..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
      }
      _ = try? PortablePNG.decode(bytes, path: "f")
    }
  }

  static func crc(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return c ^ 0xFFFF_FFFF
  }
}
