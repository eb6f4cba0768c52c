/// How the layers of a USDZ package name its files, as USD's package resolver with its default
/// resolver finds them (checked against usd-core on OpenUSD's own `testUsdUsdzFileFormat`
/// packages): a path a layer writes is relative to that layer's folder in the package, not to
/// the package's top, so a root layer kept in a subfolder (`model/scene.usdc`) names its
/// neighbours as `./parts.usdc`.
///
/// - An anchored path (`./parts.usdc`, `../textures/wood.png`) is the file at that path from the
///   writing layer's folder, and nothing else.
/// - A search path (`textures/wood.png`, `parts.usdc`) is tried from the writing layer's folder,
///   then from the root layer's folder.
/// - A path that climbs above the package's top names no file of it.
///
/// A package nested in another (or named by a bare layer) names its files as USD's
/// package-relative paths do, from the outermost package: `parts.usdz[0/wood.png]`, so that two
/// nested packages' `0/wood.png` stay two files.
struct USDPackagePaths: Sendable {
  /// The package's files, by their names in it.
  let members: Set<String>
  /// The folder of the package's root layer, empty at the package's top.
  let rootFolder: String
  /// The packages this one is nested in, outermost first: their names in the package above
  /// (the first, for a package a bare layer names, its path).
  let enclosing: [String]

  init(members: some Sequence<String>, root: String, enclosing: [String] = []) {
    self.members = Set(members)
    rootFolder = Self.folder(of: root)
    self.enclosing = enclosing
  }

  /// The name of this package's file `member` from the outermost package
  /// (`parts.usdz[0/wood.png]` in a package nested as `parts.usdz`; `member` itself at the top).
  func qualified(_ member: String) -> String {
    enclosing.reversed().reduce(member) { inner, package in package + "[" + inner + "]" }
  }

  /// The package file that `asset`, written by the layer at member `writer`, names; nil when it
  /// names none (climbs above the package's top, or is absolute). A search path found nowhere
  /// is given from the root layer's folder, so that the error names where it was looked for.
  func member(_ asset: String, writtenBy writer: String) -> String? {
    guard !asset.hasPrefix("/") else { return nil }
    let folder = Self.folder(of: writer)
    if asset.hasPrefix("./") || asset.hasPrefix("../") { return Self.joined(folder, asset) }
    if let beside = Self.joined(folder, asset), members.contains(beside) { return beside }
    return Self.joined(rootFolder, asset)
  }

  /// A package-relative path cut into the package and the member named in it
  /// (`parts.usdz[arm.usdc]`: `parts.usdz` and `arm.usdc`); any other path whole, and nil.
  static func split(_ path: String) -> (package: String, member: String?) {
    guard path.hasSuffix("]"), let open = path.firstIndex(of: "[") else { return (path, nil) }
    return (String(path[..<open]), String(path[path.index(after: open)..<path.index(before: path.endIndex)]))
  }

  /// The member name of the layer whose path is `layerPath` (`model.usdz[parts/arm.usdc]`: the
  /// last bracket's content), empty when it is no package's member.
  static func memberName(of layerPath: String) -> String {
    guard layerPath.hasSuffix("]"), let open = layerPath.lastIndex(of: "[") else { return "" }
    return String(layerPath[layerPath.index(after: open)..<layerPath.index(before: layerPath.endIndex)])
  }

  /// The folder part of member name `name` (empty at the package's top).
  private static func folder(of name: String) -> String {
    name.lastASCII("/").map { String(name[..<$0]) } ?? ""
  }

  /// `path` from `folder`, its `.` and `..` steps taken by name; nil where it climbs above the
  /// package's top.
  private static func joined(_ folder: String, _ path: String) -> String? {
    var parts = folder.split(separator: "/")
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch part {
      case ".": continue
      case "..":
        guard parts.popLast() != nil else { return nil }
      default: parts.append(part)
      }
    }
    return parts.joined(separator: "/")
  }
}
