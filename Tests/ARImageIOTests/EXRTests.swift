import ARImage
import ARTestSupport
import Foundation
import Testing

@testable import ARImageIO

/// EXR depth through OpenEXR's C core, on files OpenEXR's own Python bindings (3.5, PyPI) wrote:
/// Tests/Fixtures/images/exr, made by Tools/generate-recording-fixtures.
@Suite("EXR")
struct EXRTests {
  static func file(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("images/exr/" + name))))
  }

  /// The gradient every file holds: x + 100 y, 16 × 12, exact in half floats.
  static let gradient: [Float] = (0..<12).flatMap { y in (0..<16).map { x in Float(x + 100 * y) } }

  @Test(
    "every lossless compression, half, float and uint, decodes to the writer's values exactly",
    arguments: [
      "gradient-none-float.exr", "gradient-none-half.exr", "gradient-rle-float.exr", "gradient-rle-half.exr",
      "gradient-zips-float.exr", "gradient-zips-half.exr", "gradient-zip-float.exr", "gradient-zip-half.exr",
      "gradient-piz-float.exr", "gradient-piz-half.exr", "gradient-uint.exr",
    ])
  func losslessCompressions(name: String) throws {
    let image = try EXR.decodeChannel(Self.file(name), path: name)
    #expect(image.width == 16 && image.height == 12)
    #expect(image.pixels == Self.gradient)
  }

  @Test("of several channels, R is taken before G and B; names outside Z, R, Y are listed, not guessed")
  func channelChoice() throws {
    #expect(try EXR.decodeChannel(Self.file("gradient-rgb.exr")).pixels == Self.gradient)
    #expect(
      try EXR.decodeChannel(Self.file("two-unnamed.exr"), preferring: ["depth"]).pixels == Self.gradient)
    let error = #expect(throws: ImageError.self) {
      try EXR.decodeChannel(Self.file("two-unnamed.exr"), path: "d.exr")
    }
    #expect("\(error!)".contains("d.exr") && "\(error!)".contains("depth, mask"))
  }

  @Test("tiled files, compressions newer than the library, truncated and non-EXR bytes are refused by name")
  func refusals() throws {
    func reason(_ bytes: [UInt8]) -> String {
      do {
        _ = try EXR.decodeChannel(bytes, path: "x.exr")
        return "read"
      } catch { return "\(error)" }
    }
    #expect(reason(try Self.file("tiled.exr")).contains("tiled"))
    #expect(reason(try Self.file("gradient-zstd.exr")).contains("x.exr: invalid EXR"))
    let whole = try Self.file("gradient-zip-float.exr")
    for cut in [4, 40, whole.count / 2, whole.count - 10] {
      #expect(reason(Array(whole.prefix(cut))).contains("invalid EXR"), "cut at \(cut)")
    }
    #expect(reason(Array("not an exr".utf8)).contains("invalid EXR"))
  }
}
