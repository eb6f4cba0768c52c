import ARFiles
import ARMath
import Foundation
import Testing

/// `PathNames.folder(of:)`: NSString's `deletingLastPathComponent` where that does not trap.
@Suite("Path names")
struct PathNamesTests {
  @Test(
    "one-character names (on which Foundation traps) and edge cases",
    arguments: [
      ("x", ""), ("-", ""), ("/", "/"), ("/x", "/"), ("a/b", "a"), ("a/b/", "a"), ("//a//b", "//a"), ("", ""),
    ])
  func edges(_ path: String, _ folder: String) {
    #expect(PathNames.folder(of: path) == folder)
  }

  @Test("seeded folders and names: the folder of folder/name[/] is the folder")
  func seeded() {
    var random = SplitMix64(seed: 1)
    func name() -> String {
      String(
        (0..<Int.random(in: 1...4, using: &random)).map { _ in Array("ab.-").randomElement(using: &random)! })
    }
    for _ in 0..<5000 {
      let parts = (0..<Int.random(in: 0...3, using: &random)).map { _ in name() }
      let absolute = Bool.random(using: &random)
      var folder = (absolute ? "/" : "") + parts.joined(separator: "/")
      if folder.isEmpty && !absolute { folder = "" }
      let path =
        (folder.isEmpty ? "" : folder == "/" ? "/" : folder + "/") + name()
        + (Bool.random(using: &random) ? "/" : "")
      #expect(PathNames.folder(of: path) == folder, "\(path)")
    }
  }
}

extension PathNamesTests {
  @Test(
    "lexically normal names: . and empty parts dropped, .. taking the name before it",
    arguments: [
      ("./sub/part.usda", "sub/part.usda"), ("sub/./part.usda", "sub/part.usda"),
      ("sub/../part.usda", "part.usda"),
      ("../a", "../a"), ("a/../../b", "../b"), ("/x/../a", "/a"), ("/../a", "/a"), ("a//b/", "a/b"), ("", ""),
      (".", ""), ("/", "/"),
    ])
  func lexicallyNormal(_ path: String, _ normal: String) {
    #expect(PathNames.lexicallyNormal(path) == normal)
  }

  @Test("seeded absolute paths of names, . and ..: the same as Foundation's standardized file URL")
  func lexicallyNormalSeeded() {
    var random = SplitMix64(seed: 2)
    for _ in 0..<3000 {
      let parts = (0..<Int.random(in: 1...6, using: &random)).map { _ in
        ["a", "bc", ".", "..", "d.usda"].randomElement(using: &random)!
      }
      let path = "/" + parts.joined(separator: "/")
      #expect(PathNames.lexicallyNormal(path) == URL(fileURLWithPath: path).standardized.path, "\(path)")
    }
  }
}
