import ARImage
import ARTestSupport
import Foundation
import Testing

@testable import ARImageIO

/// KTX2 textures (KHR_texture_basisu) against Basis Universal's own transcoder: each fixture's
/// base image as alktx2 0.1.7 decodes it (Tests/Fixtures/images/ktx2, Tools/generate-ktx2-fixtures).
@Suite("KTX2")
struct KTX2Tests {
  static func file(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("images/ktx2/" + name))))
  }

  @Test(
    "ETC1S (BasisLZ) and UASTC (Zstandard) images, opaque and with alpha, sizes not multiples of 4, decode to Basis Universal's pixels exactly",
    arguments: [
      "photo-etc1s", "pattern-etc1s-alpha", "photo-uastc", "mixed-uastc", "mixed-uastc-alpha", "modes-uastc",
      "modes-uastc-alpha",
    ])
  func decodes(name: String) throws {
    let bytes = try Self.file(name + ".ktx2")
    #expect(KTX2.codec(of: bytes) == (name.contains("uastc") ? .uastc : .etc1s))
    let ours = try ImageFile.decodeRGBA8(bytes, name: name)
    let reference = try ImageFile.decodeRGBA8(try Self.file(name + ".basisu.png"), name: name)
    #expect(ours.width == reference.width && ours.height == reference.height)
    let differing = zip(ours.pixels, reference.pixels).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) of \(ours.pixels.count) pixels differ from Basis Universal's")
  }

  @Test("the UASTC fixtures use every one of UASTC's 19 modes")
  func everyMode() throws {
    var seen = Set<Int>()
    for name in ["photo-uastc", "mixed-uastc", "mixed-uastc-alpha", "modes-uastc", "modes-uastc-alpha"] {
      let bytes = try Self.file(name + ".ktx2")
      let blocks = try KTX2.uastcBlocks(bytes, KTX2.header(bytes, path: name))
      for start in stride(from: blocks.startIndex, to: blocks.endIndex, by: 16) {
        if let mode = BasisUASTC.modeOfLowBits[Int(blocks[start] & 127)] { seen.insert(mode) }
      }
    }
    #expect(seen == Set(0..<19), "modes not exercised: \(Set(0..<19).subtracting(seen).sorted())")
  }

  @Test("every truncation of an ETC1S file is an error, never a crash or a wrong image")
  func truncated() throws {
    let bytes = try Self.file("pattern-etc1s-alpha.ktx2")
    for length in stride(from: 0, to: bytes.count, by: 7) {
      #expect(throws: ImageError.self) { _ = try KTX2.decodeRGBA8(Array(bytes.prefix(length)), path: "cut") }
    }
  }
}
