import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

@Suite("Images: PNG, JPEG, sRGB")
struct ImageTests {
  func randomImage<T: FixedWidthInteger & Sendable>(_ rng: inout SplitMix64, _ w: Int, _ h: Int) -> Image<
    SIMD4<T>
  > {
    Image(
      width: w, height: h,
      pixels: (0..<(w * h)).map { _ in
        SIMD4(
          T.random(in: .min ... .max, using: &rng), T.random(in: .min ... .max, using: &rng),
          T.random(in: .min ... .max, using: &rng), T.random(in: .min ... .max, using: &rng))
      })
  }

  @Test("PNG write → read is lossless in 8 and 16 bits, every layout, interlaced or not")
  func pngRoundTrip() throws {
    var rng = SplitMix64(seed: 501)
    for channels in PNG.Channels.allCases {
      for interlaced in [false, true] {
        let (w, h) = (Int.random(in: 1...70, using: &rng), Int.random(in: 1...70, using: &rng))
        var image8: RGBA8Image = randomImage(&rng, w, h)
        var image16: RGBA16Image = randomImage(&rng, w, h)
        // Layouts without colour or alpha store less: make the source match what they keep.
        if channels == .grey || channels == .greyAlpha {
          image8 = image8.map { SIMD4($0.x, $0.x, $0.x, $0.w) }
          image16 = image16.map { SIMD4($0.x, $0.x, $0.x, $0.w) }
        }
        if channels == .grey || channels == .rgb {
          image8 = image8.map { SIMD4($0.x, $0.y, $0.z, 255) }
          image16 = image16.map { SIMD4($0.x, $0.y, $0.z, 65535) }
        }
        let bytes8 = try PNG.encode(image8, channels: channels, interlaced: interlaced)
        #expect(try PNG.decodeRGBA8(bytes8) == image8, "\(channels) interlaced: \(interlaced)")
        let samples = try PNG.decodeSamples(bytes8)
        #expect(samples.channels == channels && samples.bitDepth == 8 && samples.interlaced == interlaced)
        let bytes16 = try PNG.encode(image16, channels: channels, interlaced: interlaced)
        #expect(try PNG.decodeRGBA16(bytes16) == image16, "\(channels) interlaced: \(interlaced)")
        #expect(try PNG.decodeSamples(bytes16).bitDepth == 16)
      }
    }
  }

  @Test("8-bit PNGs widen exactly to 16 bits and 16-bit ones round to 8")
  func depthConversion() throws {
    let image = RGBA16Image(
      width: 2, height: 1, pixels: [[0, 257, 65535, 32896], [128, 65280, 1000, 65535]])
    let as8 = try PNG.decodeRGBA8(PNG.encode(image))
    #expect(as8.pixels == [[0, 1, 255, 128], [0, 254, 4, 255]])
    let eight = RGBA8Image(width: 1, height: 1, pixels: [[1, 2, 255, 0]])
    #expect(try PNG.decodeRGBA16(PNG.encode(eight)).pixels == [[257, 514, 65535, 0]])
  }

  @Test("damaged PNGs are refused with libpng's reason")
  func badPNG() throws {
    var bytes = try PNG.encode(RGBA8Image(width: 4, height: 4, fill: [1, 2, 3, 4]))
    #expect(
      throws: ImageError.invalid(path: "x.png", format: "PNG", reason: "not a PNG file (bad signature)")
    ) {
      try PNG.decodeRGBA8(Array(bytes.dropFirst()), path: "x.png")
    }
    expectError(ImageError.self, "invalid") { try PNG.decodeRGBA8(Array(bytes.prefix(bytes.count / 2))) }
    bytes[40] ^= 0xFF  // inside IDAT: CRC mismatch
    expectError(ImageError.self, "invalid") { try PNG.decodeRGBA8(bytes) }
    expectError(ImageError.self, "unwritable") {
      try PNG.encode(RGBA8Image(width: 0, height: 3, fill: .zero))
    }
  }

  @Test("a header claiming more pixels than the file's bytes can inflate to is refused before allocating")
  func pngSizeClaims() throws {
    let claim = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: Fixtures.path("regressions/png-header-52992x20558.png"))))
    let reason =
      "the header's 52992x20558 image needs at least 131974 bytes of compressed data, more than the file's 47 bytes (truncated, or a corrupt header)"
    #expect(throws: ImageError.invalid(path: "x.png", format: "PNG", reason: reason)) {
      try PNG.decodeRGBA8(claim, path: "x.png")
    }
    #expect(throws: ImageError.invalid(path: "x.png", format: "PNG", reason: reason)) {
      try PNG.decodeSamples(claim, path: "x.png")
    }
    // The bound is deflate's best ratio, 1032:1, which no encoder reaches: the most compressible
    // image there is, at zlib's best level, still decodes.
    let black = RGBA8Image(width: 2048, height: 2048, fill: .zero)
    let packed = try PNG.encode(black, compression: 9)
    #expect(packed.count * 1032 > 2048 * (1 + 2048 * 4))
    #expect(try PNG.decodeRGBA8(packed) == black)
  }

  @Test("JPEG decodes to RGBA close to the source gradient; truncated JPEGs are refused")
  func jpeg() throws {
    let image = try ImageFile.readRGBA8(Fixtures.path("images/gradient.jpg"))
    #expect(image.width == 16 && image.height == 8)
    for y in 0..<8 {
      for x in 0..<16 {
        let p = SIMD4<Int>(truncatingIfNeeded: image[x, y])
        let want = SIMD4(x * 16, y * 32, 128, 255)
        // Quality 95 with 4:2:0 chroma subsampling: steep colour ramps blur by up to ~16.
        #expect((p &- want).wrappedAbsMax <= 20, "pixel \(x), \(y): \(p)")
      }
    }
    expectError(ImageError.self, "invalid") { try ImageFile.readRGBA8(Fixtures.path("images/truncated.jpg")) }
    // A frame claiming 65481×65496 pixels in 686 bytes: refused before the image is allocated.
    let claim = Fixtures.path("regressions/jpeg-header-65481x65496.jpg")
    #expect {
      try ImageFile.readRGBA8(claim)
    } throws: {
      "\($0)".contains("the header's 65481x65496 image needs at least 8377348 bytes of coded data")
    }
    #expect(throws: ImageError.unknownFormat(path: Fixtures.path("obj/cube_quads.obj"))) {
      try ImageFile.readRGBA8(Fixtures.path("obj/cube_quads.obj"))
    }
  }

  @Test("sRGB transfer: known values and round trips of every 8-bit code")
  func srgb() {
    #expect(SRGB.decodeTable[0] == 0 && SRGB.decodeTable[255] == 1)
    #expect(abs(SRGB.decode(0.5) - 0.21404114) < 1e-6)
    #expect(SRGB.encode8(0.5) == 188)
    #expect(SRGB.encode8(-1) == 0 && SRGB.encode8(2) == 255)
    for code in 0...255 { #expect(SRGB.encode8(SRGB.decodeTable[code]) == UInt8(code)) }
    let image = RGBA8Image(width: 1, height: 2, pixels: [[10, 128, 250, 77], [0, 255, 1, 255]])
    #expect(image.linear.sRGB8 == image)
  }

  @Test(
    "the table encoder gives encode8's code for every value, one or four at a time: sweeps, thresholds, random"
  )
  func srgbEncoder() {
    let encoder = SRGB.Encoder.shared
    var mismatches = 0
    // The four-lane path: each value in the next lane in turn, among neighbours from other
    // buckets (whose codes must not change either).
    let neighbours = SIMD4<Float>(0.9, 0.0001, 0.37, 1)
    let neighbourCodes = SIMD4<Int32>(
      Int32(SRGB.encode8(0.9)), Int32(SRGB.encode8(0.0001)), Int32(SRGB.encode8(0.37)), 255)
    var lane = 0
    func check(_ v: Float) {
      let expected = SRGB.encode8(v)
      var values = neighbours, codes = neighbourCodes
      values[lane] = v > 0 ? Swift.min(v, 1) : 0
      codes[lane] = Int32(expected)
      if encoder.code(v) != expected || encoder.codes(unit: values) != codes { mismatches += 1 }
      lane = (lane + 1) % 4
    }
    for i in 0...(1 << 20) { check(Float(i) / Float(1 << 20)) }
    // Either side of every bucket's start, and its last value.
    for i in 0..<SRGB.Encoder.buckets {
      let first = Float(bitPattern: ((Float(0x1p-13).bitPattern >> 16) + UInt32(i)) << 16)
      check(first)
      check(first.nextDown)
      check(Float(bitPattern: first.bitPattern | 0xFFFF))
    }
    // Either side of every threshold, where a rounding slip would show.
    for code in 1...255 {
      let t = encoder.thresholds[code]
      check(t)
      check(t.nextDown)
      check(t.nextUp)
    }
    var rng = SplitMix64(seed: 41)
    for _ in 0..<100_000 { check(Float.random(in: 0...1, using: &rng)) }
    let specials: [Float] = [
      -1, -0.0, .nan, .infinity, -.infinity, 2, .leastNonzeroMagnitude, Float(1).nextDown,
    ]
    for v in specials { check(v) }
    #expect(mismatches == 0)
  }

  @Test("atomic writes leave the old file or the new one, never a partial one")
  func atomicWrite() throws {
    let dir = NSTemporaryDirectory() + "arscene-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let path = dir + "/out.png"
    try ImageFile.writePNG(RGBA8Image(width: 3, height: 2, fill: [9, 8, 7, 255]), to: path)
    #expect(try ImageFile.readRGBA8(path) == RGBA8Image(width: 3, height: 2, fill: [9, 8, 7, 255]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.png"])
    expectError(ImageError.self, "unwritable") {
      try ImageFile.writePNG(RGBA8Image(width: 1, height: 1, fill: .zero), to: dir + "/missing/dir/out.png")
    }
  }
}

extension SIMD4 where Scalar == Int {
  var wrappedAbsMax: Int { Swift.max(Swift.max(abs(x), abs(y)), Swift.max(abs(z), abs(w))) }
}

@Test("the OBJ fixtures' checker texture decodes to its two greys")
func checkerTexture() throws {
  let image = try ImageFile.readRGBA8(Fixtures.path("obj/textures/checker board.png"))
  #expect(image.width == 8 && image[0, 0] == [230, 230, 230, 255] && image[2, 0] == [40, 40, 40, 255])
}
