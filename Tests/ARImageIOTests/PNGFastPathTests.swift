import ARImage
import ARMath
import ARTestSupport
import CImageCodecs
import Foundation
import Testing

@testable import ARImageIO

/// The libdeflate path that decodes the PNGs renderers and recorders write gives what libpng
/// gives, sample for sample, on every PNG in the repository (written by our encoder, Python's
/// zlib, OpenCV, Chromium) and on files made to use every filter, colour type and depth with
/// the stream split over many IDAT chunks; files it does not take (palette, tRNS, interlaced)
/// still decode through libpng.
@Suite("PNG decoding: the fast path against libpng")
struct PNGFastPathTests {
  static let root = Fixtures.root + "/../.."

  /// libpng's decoding of `bytes`, as samples (`as_rgba8` false) or RGBA8.
  static func reference(_ bytes: [UInt8], rgba8: Bool) -> (
    width: Int, height: Int, depth: Int, bytes: [UInt8]
  )? {
    var image = arscene_image()
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBufferPointer {
      arscene_png_decode_libpng($0.baseAddress, $0.count, rgba8 ? 1 : 0, &image, &message, message.count)
    }
    guard status == 0 else { return nil }
    defer { arscene_image_free(&image) }
    let raw = UnsafeRawBufferPointer(start: image.pixels, count: image.byte_count)
    return (Int(image.width), Int(image.height), Int(image.bit_depth), Array(raw))
  }

  /// Whether the fast path takes `bytes` itself.
  static func fastPathTakes(_ bytes: [UInt8]) -> Bool {
    var image = arscene_image()
    defer { arscene_image_free(&image) }
    return bytes.withUnsafeBufferPointer {
      arscene_png_decode_fast($0.baseAddress, $0.count, 0, &image, nil, 0)
    } == 1
  }

  /// `bytes` decoded both ways, compared exactly.
  static func expectSame(_ bytes: [UInt8], _ name: String) throws {
    let samples = try PNG.decodeSamples(bytes)
    let reference = try #require(Self.reference(bytes, rgba8: false), "libpng refuses \(name)")
    #expect(
      samples.width == reference.width && samples.height == reference.height
        && samples.bitDepth == reference.depth)
    let theirs: [UInt16] =
      reference.depth == 16
      ? reference.bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
      : reference.bytes.map(UInt16.init)
    #expect(samples.samples == theirs, "\(name): samples differ")
    let rgba = try PNG.decodeRGBA8(bytes)
    let referenceRGBA = try #require(Self.reference(bytes, rgba8: true))
    #expect(
      rgba.pixels.flatMap { [$0.x, $0.y, $0.z, $0.w] } == referenceRGBA.bytes, "\(name): RGBA8 differs")
  }

  @Test("every PNG in the repository decodes as libpng decodes it")
  func repositoryFiles() throws {
    // The repository's own files: hidden folders (build folders, a package's checkouts, .git)
    // are not entered, and not the inputs that once failed: they are not PNGs anyone can decode.
    let root = URL(fileURLWithPath: Self.root).standardizedFileURL
    let walk = FileManager.default.enumerator(
      at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles, .skipsPackageDescendants])
    let files = (walk?.allObjects as? [URL] ?? []).map {
      String($0.standardizedFileURL.path.dropFirst(root.path.count + 1))
    }
    .filter { $0.hasSuffix(".png") && !$0.hasPrefix("Tests/Fixtures/regressions/") }
    #expect(files.count >= 20)
    for file in files {
      try Self.expectSame([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.root + "/" + file))), file)
    }
  }

  @Test(
    "every filter, colour type and depth, the stream over many IDAT chunks; palette, tRNS, interlaced and corrupt files too"
  )
  func madeFiles() throws {
    let folder = try TemporaryFolder()
    // Python's zlib writes the files: rows filtered by type (y mod 5), IDAT chunks of 97 bytes.
    let script = """
      import struct, sys, zlib, random
      random.seed(7)
      def chunk(t, d):
          return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
      def paeth(a, b, c):
          p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
          return a if pa <= pb and pa <= pc else (b if pb <= pc else c)
      def png(path, w, h, color, depth, extra=b'', interlace=0, split=97):
          ch = {0: 1, 2: 3, 4: 2, 6: 4, 3: 1}[color]; bpp = ch * depth // 8; rb = w * bpp
          rows = [bytes(random.randrange(256) if random.random() < 0.5 else (x * 7 + y * 3) % 256 for x in range(rb)) for y in range(h)]
          if color == 3: rows = [bytes(v % 4 for v in r) for r in rows]
          out = b''; prior = bytes(rb)
          for y, r in enumerate(rows):
              f = y % 5; res = bytearray()
              for i in range(rb):
                  a = r[i - bpp] if i >= bpp else 0; b = prior[i]; c = prior[i - bpp] if i >= bpp else 0
                  pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][f]
                  res.append((r[i] - pred) % 256)
              out += bytes([f]) + bytes(res); prior = r
          z = zlib.compress(out, 6)
          data = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, color, 0, 0, interlace)) + extra
          for i in range(0, len(z), split): data += chunk(b'IDAT', z[i:i + split])
          open(path, 'wb').write(data + chunk(b'IEND', b''))
      d = sys.argv[1]
      for color in (0, 2, 4, 6):
          for depth in (8, 16):
              png(f'{d}/c{color}d{depth}.png', 37, 23, color, depth, extra=chunk(b'gAMA', struct.pack('>I', 45455)))
      png(f'{d}/palette.png', 19, 11, 3, 8, extra=chunk(b'PLTE', bytes(range(12))))
      png(f'{d}/trns.png', 19, 11, 2, 8, extra=chunk(b'tRNS', bytes(6)))
      png(f'{d}/onechunk.png', 64, 48, 6, 8, split=10**9)
      png(f'{d}/linear.png', 8, 8, 2, 8, extra=chunk(b'gAMA', struct.pack('>I', 100000)))
      """
    let made = try PythonPeer.run(script, arguments: [folder.path], packages: "none")
    #expect(made.status == 0, "\(made.output)")
    for name in [
      "c0d8", "c0d16", "c2d8", "c2d16", "c4d8", "c4d16", "c6d8", "c6d16", "palette", "trns", "onechunk",
      "linear",
    ] {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name + ".png")))
      #expect(Self.fastPathTakes(bytes) == !["palette", "trns"].contains(name), "\(name)")
      try Self.expectSame(bytes, name)
    }
    // Interlaced (libpng writes it): libpng's alone.
    let pixels = (0..<(29 * 17)).map { (i: Int) -> SIMD4<UInt8> in
      SIMD4(UInt8(i % 256), UInt8(i * 7 % 256), 9, UInt8(i % 200))
    }
    let image = RGBA8Image(width: 29, height: 17, pixels: pixels)
    let interlaced = try PNG.encode(image, interlaced: true)
    #expect(!Self.fastPathTakes(interlaced))
    try Self.expectSame(interlaced, "interlaced")
    #expect(try PNG.decodeRGBA8(interlaced) == image)
    // Our own encoder's files are the fast path's.
    #expect(Self.fastPathTakes(try PNG.encode(image, compression: 2)))
    // A flipped bit in the stream: the chunk's CRC no longer holds, and libpng names the file's fault.
    var corrupt = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path + "/c2d8.png")))
    corrupt[corrupt.count - 40] ^= 1
    expectError(ImageError.self, "invalid") { try PNG.decodeRGBA8(corrupt) }
  }
}

/// The encoder's rows filtered on two threads (a frame of a megabyte or more), and deflated in
/// two halves joined into one zlib stream, decode by libpng (zlib checks the stream's blocks and
/// its Adler-32) to the image given.
@Suite("PNG encoding of large frames")
struct PNGLargeEncodingTests {
  @Test("a seeded 1200×900 frame, RGB and RGBA, level 1 and 6: libpng decodes exactly the image")
  func largeFrames() throws {
    var random = SplitMix64(seed: 12)
    let (w, h) = (1200, 900)
    // Smooth gradients with noisy patches, as camera frames and renders mix them.
    let pixels = (0..<(w * h)).map { i -> SIMD4<UInt8> in
      let (x, y) = (i % w, i / w)
      let noise = (x / 64 + y / 64) % 3 == 0 ? UInt8.random(in: 0...40, using: &random) : 0
      return SIMD4(UInt8(x % 256) &+ noise, UInt8(y % 256), UInt8((x + y) % 256), UInt8(255 - (x % 7)))
    }
    let image = RGBA8Image(width: w, height: h, pixels: pixels)
    for (channels, level) in [(PNG.Channels.rgb, 1), (.rgba, 6)] {
      let bytes = try PNG.encode(image, channels: channels, compression: level)
      let reference = try #require(PNGFastPathTests.reference(bytes, rgba8: true), "libpng refuses it")
      let expected = pixels.flatMap { [$0.x, $0.y, $0.z, channels == .rgba ? $0.w : 255] }
      #expect(reference.width == w && reference.height == h && reference.bytes == expected, "\(channels)")
    }
  }

  @Test(
    "noise (stored blocks), one flat colour (long matches) and a mix, levels 0, 1 and 12: the joined stream decodes exactly",
    arguments: [0, 1, 12])
  func joinedStreams(level: Int) throws {
    var random = SplitMix64(seed: UInt64(40 + level))
    let (w, h) = (700, 500)
    let contents: [(String, (Int, Int) -> SIMD4<UInt8>)] = [
      (
        "noise",
        { _, _ in
          SIMD4(UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random), 7, 255)
        }
      ),
      ("flat", { _, _ in SIMD4(90, 140, 200, 255) }),
      (
        "halves",
        { x, y in
          y < h / 2
            ? SIMD4(UInt8(x % 256), 3, 3, 255) : SIMD4(UInt8.random(in: 0...255, using: &random), 9, 9, 255)
        }
      ),
    ]
    for (name, pixel) in contents {
      let pixels = (0..<(w * h)).map { pixel($0 % w, $0 / w) }
      let bytes = try PNG.encode(
        RGBA8Image(width: w, height: h, pixels: pixels), channels: .rgba, compression: level)
      let reference = try #require(PNGFastPathTests.reference(bytes, rgba8: true), "libpng refuses \(name)")
      #expect(reference.bytes == pixels.flatMap { [$0.x, $0.y, $0.z, $0.w] }, "\(name), level \(level)")
    }
  }
}
