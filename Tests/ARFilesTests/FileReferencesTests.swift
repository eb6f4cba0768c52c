import ARFiles
import ARMath
import ARTestSupport
import Foundation
import Testing

/// `FileReferences`: a file's references reach its own folder and what is below it, and the
/// folders allowed, and nothing else, by any spelling or link.
@Suite("File references", .serialized)
struct FileReferencesTests {
  /// An asset folder with a texture, a sub-folder and a secret beside it (outside).
  static func layout() throws -> (folder: TemporaryFolder, asset: String) {
    let folder = try TemporaryFolder()
    try folder.write("texture", to: "asset/tex.png")
    try folder.write("nested", to: "asset/sub/deep.png")
    try folder.write("secret", to: "secret.txt")
    return (folder, folder.path + "/asset/model.gltf")
  }

  @Test(
    "inside the asset's folder: followed, to the file named",
    arguments: [
      ("tex.png", "asset/tex.png"), ("./tex.png", "asset/tex.png"), ("sub/deep.png", "asset/sub/deep.png"),
      ("sub/../tex.png", "asset/tex.png"), ("sub//deep.png", "asset/sub/deep.png"),
    ])
  func inside(_ reference: String, _ expected: String) throws {
    let (folder, asset) = try Self.layout()
    let resolved = try FileReferences.resolve(reference, in: asset)
    #expect(resolved == folder.path + "/" + expected)
    #expect(FileManager.default.fileExists(atPath: resolved))
  }

  @Test(
    "outside it: refused, naming the reference",
    arguments: [
      "../secret.txt", "sub/../../secret.txt", "/etc/shadow", "/proc/self/environ", "..", "../asset2/x",
    ])
  func outside(_ reference: String) throws {
    let (folder, asset) = try Self.layout()
    defer { withExtendedLifetime(folder) {} }
    #expect {
      _ = try FileReferences.resolve(reference, in: asset)
    } throws: { error in
      let refusal = try #require(error as? ReferenceError)
      return refusal.reference == reference && refusal.reason.contains("outside the file's folder")
        && refusal.description.contains(reference)
    }
  }

  @Test("an empty reference and a NUL byte are refused")
  func malformed() throws {
    let (folder, asset) = try Self.layout()
    defer { withExtendedLifetime(folder) {} }
    #expect(throws: ReferenceError.self) { try FileReferences.resolve("", in: asset) }
    #expect(throws: ReferenceError.self) { try FileReferences.resolve("tex.png\0.txt", in: asset) }
  }

  @Test("a link inside that leads outside is refused, to a file or through a folder, missing or not")
  func symbolicLinks() throws {
    let (folder, asset) = try Self.layout()
    let files = FileManager.default
    try files.createSymbolicLink(
      atPath: folder.path + "/asset/link.png", withDestinationPath: "../secret.txt")
    try files.createSymbolicLink(atPath: folder.path + "/asset/out", withDestinationPath: folder.path)
    try files.createSymbolicLink(atPath: folder.path + "/asset/inner.png", withDestinationPath: "tex.png")
    for reference in ["link.png", "out/secret.txt", "out/missing.png"] {
      #expect(throws: ReferenceError.self, "\(reference)") {
        try FileReferences.resolve(reference, in: asset)
      }
    }
    #expect(try FileReferences.resolve("inner.png", in: asset) == folder.path + "/asset/inner.png")
  }

  @Test("an allowed folder widens the reach, for absolute and climbing references alike")
  func allowedFolder() throws {
    let (folder, asset) = try Self.layout()
    defer { FileReferences.resetAllowedFolders() }
    try FileReferences.allow(folder: folder.path)
    #expect(try FileReferences.resolve("../secret.txt", in: asset) == folder.path + "/secret.txt")
    #expect(try FileReferences.resolve(folder.path + "/secret.txt", in: asset) == folder.path + "/secret.txt")
    #expect(throws: ReferenceError.self) { try FileReferences.resolve("/etc/hostname", in: asset) }
    #expect(throws: FileIOError.self) { try FileReferences.allow(folder: folder.path + "/no-such-folder") }
  }

  @Test("a relative asset path resolves against the working directory")
  func relativeAsset() throws {
    let resolved = try FileReferences.resolve("tex.png", in: "asset/model.gltf")
    #expect(resolved == FileManager.default.currentDirectoryPath + "/asset/tex.png")
    #expect(throws: ReferenceError.self) { try FileReferences.resolve("../../x", in: "asset/model.gltf") }
  }

  @Test("seeded references built from ./, .. and names: refused exactly when they climb out")
  func seededReferences() throws {
    let (folder, asset) = try Self.layout()
    defer { withExtendedLifetime(folder) {} }
    var random = SplitMix64(seed: 67)
    for _ in 0..<2000 {
      var depth = 0, lowest = 0
      var parts: [String] = []
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: parts.append("."); continue
        case 1: parts.append(".."); depth -= 1
        default: parts.append("d\(Int.random(in: 0..<3, using: &random))"); depth += 1
        }
        lowest = min(lowest, depth)
      }
      let reference = parts.joined(separator: "/")
      let result = Result { try FileReferences.resolve(reference, in: asset) }
      if lowest < 0 {
        #expect(throws: ReferenceError.self, "\(reference)") { try result.get() }
      } else {
        #expect(throws: Never.self, "\(reference)") { try result.get() }
      }
    }
  }
}
