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

  @Test("seeded paths of two or more characters: the same as NSString's")
  func seeded() {
    var random = SplitMix64(seed: 1)
    let alphabet = Array("ab/.")
    for _ in 0..<5000 {
      let path = String(
        (0..<Int.random(in: 2...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
      // Foundation traps on every path that is one character once its trailing slashes go
      // (`x`, `a/`, `./`): those are the edge cases above, not NSString's to answer.
      guard path.reversed().drop(while: { $0 == "/" }).count >= 2 else { continue }
      let expected = (path as NSString).deletingLastPathComponent
      #expect(
        PathNames.folder(of: path) == expected || Self.sameFolder(PathNames.folder(of: path), expected),
        "\(path)")
    }
  }

  /// NSString also collapses repeated slashes inside the folder; the kernel reads both alike.
  static func sameFolder(_ a: String, _ b: String) -> Bool {
    a.split(separator: "/") == b.split(separator: "/") && a.hasPrefix("/") == b.hasPrefix("/")
  }
}
