/// Path names taken apart by text alone, as `NSString`'s path methods do, but safe on every
/// input: Foundation's `deletingLastPathComponent` traps on a one-character relative path (`x`,
/// `-`), which a user's output name can be.
package enum PathNames {
  /// The folder part of `path`: `a/b/c.obj` → `a/b`, `/c.obj` → `/`, `c.obj` → `` (the working
  /// directory), trailing slashes ignored (`a/b/` → `a`).
  package static func folder(of path: String) -> String {
    var text = Substring(path)
    while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
    guard let slash = text.lastIndex(of: "/") else { return "" }
    var folder = text[..<slash]
    while folder.hasSuffix("/") { folder = folder.dropLast() }
    return folder.isEmpty ? "/" : String(folder)
  }

  /// `path` with its `.` components and empty ones (`a//b`) dropped and each `..` taking away
  /// the name before it, by text alone (no link is followed): `./sub/../a.usda` → `a.usda`,
  /// `../a` stays `../a`, `/x/../a` → `/a`. Two relative names of one file from one folder
  /// compare equal this way.
  package static func lexicallyNormal(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
      } else if part == "..", path.hasPrefix("/") {
        continue  // above the root is the root
      } else {
        parts.append(part)
      }
    }
    return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
  }
}
