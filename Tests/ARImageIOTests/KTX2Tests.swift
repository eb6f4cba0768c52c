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
    "ETC1S (BasisLZ) images, opaque and with an alpha slice, sizes not multiples of 4, decode to Basis Universal's pixels exactly",
    arguments: ["photo-etc1s", "pattern-etc1s-alpha"])
  func etc1s(name: String) throws {
    let bytes = try Self.file(name + ".ktx2")
    #expect(KTX2.codec(of: bytes) == .etc1s)
    let ours = try ImageFile.decodeRGBA8(bytes, name: name)
    let reference = try ImageFile.decodeRGBA8(try Self.file(name + ".basisu.png"), name: name)
    #expect(ours.width == reference.width && ours.height == reference.height)
    let differing = zip(ours.pixels, reference.pixels).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) of \(ours.pixels.count) pixels differ from Basis Universal's")
  }

  @Test("a UASTC file is told apart and refused with a reason, not misdecoded")
  func uastcRefused() throws {
    let bytes = try Self.file("photo-uastc.ktx2")
    #expect(KTX2.codec(of: bytes) == .uastc)
    #expect(throws: ImageError.self) { _ = try ImageFile.decodeRGBA8(bytes, name: "photo-uastc.ktx2") }
  }

  @Test("every truncation of an ETC1S file is an error, never a crash or a wrong image")
  func truncated() throws {
    let bytes = try Self.file("pattern-etc1s-alpha.ktx2")
    for length in stride(from: 0, to: bytes.count, by: 7) {
      #expect(throws: ImageError.self) { _ = try KTX2.decodeRGBA8(Array(bytes.prefix(length)), path: "cut") }
    }
  }
}
