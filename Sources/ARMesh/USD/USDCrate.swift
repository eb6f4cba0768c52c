/// A binary USD layer (`.usdc`, "crate"): its tokens, fields, paths and specs, and the values
/// the fields hold, read as Pixar's format defines them for versions 0.4 to 0.10 (the LZ4 and
/// integer-coded sections). Only the value types a mesh, its transforms and the stage's units
/// need are decoded; other fields are skipped.
struct USDCrate {
  let path: String
  /// The layer's bytes, where they are in the file read (not copied); offsets count from the
  /// first.
  let bytes: ArraySlice<UInt8>
  let version: (major: Int, minor: Int, patch: Int)
  private(set) var tokens: [String] = []
  private(set) var fields: [(name: Int, rep: UInt64)] = []
  private(set) var fieldSets: [Int] = []
  /// Each path's text (`/Cube/Cube.points`), by path index.
  private(set) var paths: [String] = []
  /// The strings values use (asset paths of references), as token indices.
  private(set) var strings: [Int] = []

  /// The text of string `index` (a value's string: a reference's asset path, a sublayer, a
  /// variant's name, a path expression), nil for an index past the strings (each names a token:
  /// checked where they are read).
  func string(_ index: Int) -> String? {
    strings.indices.contains(index) ? tokens[strings[index]] : nil
  }
  /// Each spec: its path index, where its fields start in ``fieldSets``, and its type.
  private(set) var specs: [(path: Int, fieldSet: Int, type: Int)] = []

  private var sections: [String: (start: Int, size: Int)] = [:]

  init(_ bytes: ArraySlice<UInt8>, path: String) throws(USDError) {
    self.path = path
    self.bytes = bytes
    guard bytes.count >= 88, bytes.starts(with: Array("PXR-USDC".utf8)) else {
      throw USDError(path: path, place: "", reason: "not a binary USD layer (no PXR-USDC header)")
    }
    let b = bytes.startIndex
    version = (Int(bytes[b + 8]), Int(bytes[b + 9]), Int(bytes[b + 10]))
    guard version.major == 0, version.minor >= 4 else {
      throw USDError(
        path: path, place: "header",
        reason: "crate version \(version.major).\(version.minor) (0.4 and later are read)")
    }
    var reader = USDByteReader(bytes: bytes, path: path, place: "table of contents")
    reader.at = Int(clamping: try reader.int64(at: 16))
    let count = try reader.uint64()
    guard count <= 64 else { throw reader.fail("\(count) sections") }
    for _ in 0..<count {
      let name = String(decoding: try reader.bytes(16).prefix { $0 != 0 }, as: UTF8.self)
      let start = Int(clamping: try reader.int64()), size = Int(clamping: try reader.int64())
      guard start >= 0, size >= 0, start <= bytes.count, size <= bytes.count - start else {
        throw reader.fail("section \(name) runs past the file")
      }
      sections[name] = (start, size)
    }
    try readTokens()
    try readStrings()
    try readFields()
    try readFieldSets()
    try readPaths()
    try readSpecs()
  }

  private func section(_ name: String) throws(USDError) -> USDByteReader {
    guard let s = sections[name] else { throw USDError(path: path, place: name, reason: "missing section") }
    var reader = USDByteReader(bytes: bytes, path: path, place: name)
    reader.at = s.start
    return reader
  }

  private mutating func readTokens() throws(USDError) {
    var r = try section("TOKENS")
    let count = try r.uint64(), uncompressed = try r.uint64(), compressed = try r.uint64()
    guard count <= 1 << 24, uncompressed <= 1 << 28 else {
      throw r.fail("\(count) tokens of \(uncompressed) bytes")
    }
    let chars = try r.decompressed(Int(clamping: compressed), expected: Int(uncompressed))
    tokens = chars.split(separator: 0, omittingEmptySubsequences: false).prefix(Int(count)).map {
      String(decoding: $0, as: UTF8.self)
    }
    guard tokens.count == count else { throw r.fail("\(count) tokens declared, \(tokens.count) found") }
  }

  /// STRINGS: a count, then each string's token index (older crates may have none).
  private mutating func readStrings() throws(USDError) {
    guard sections["STRINGS"] != nil else { return }
    var r = try section("STRINGS")
    let count = try r.count()
    strings = try (0..<count).map { _ throws(USDError) in
      let index = Int(try r.uint32())
      guard tokens.indices.contains(index) else { throw r.fail("a string names no token") }
      return index
    }
  }

  private mutating func readFields() throws(USDError) {
    var r = try section("FIELDS")
    let count = try r.count()
    let names = try r.compressedInts(count)
    let size = try r.uint64()
    let reps = try r.decompressed(Int(clamping: size), expected: 8 * count)
    fields = (0..<count).map { i in
      var v: UInt64 = 0
      for k in 0..<8 { v |= UInt64(reps[8 * i + k]) << (8 * UInt64(k)) }
      return (Int(names[i]), v)
    }
    guard fields.allSatisfy({ tokens.indices.contains($0.name) }) else {
      throw r.fail("a field names no token")
    }
  }

  private mutating func readFieldSets() throws(USDError) {
    var r = try section("FIELDSETS")
    let count = try r.count()
    fieldSets = try r.compressedInts(count).map { $0 == 0xFFFF_FFFF || $0 == -1 ? -1 : Int($0) }
    guard fieldSets.allSatisfy({ $0 == -1 || fields.indices.contains($0) }) else {
      throw r.fail("a field set names no field")
    }
  }

  private mutating func readPaths() throws(USDError) {
    var r = try section("PATHS")
    let total = try r.count()
    let count = try r.count()
    let indexes = try r.compressedInts(count), elements = try r.compressedInts(count),
      jumps = try r.compressedInts(count)
    paths = Array(repeating: "", count: total)
    // Depth-first: a jump of −1 has a child only, 0 a sibling only, > 0 both (the sibling that
    // far ahead), −2 neither.
    // Nesting is bounded as in text layers (`USDTextLayer.maximumNesting`): every prim's
    // transform walks its ancestors, so 10,000 nested prims would cost 10⁸ steps.
    var stack: [(index: Int, parent: String, depth: Int)] = [(0, "", 0)]
    var visited = 0
    while let (start, parentPath, parentDepth) = stack.popLast() {
      var i = start, parent = parentPath, depth = parentDepth
      while true {
        guard depth <= USDTextLayer.maximumNesting else {
          throw r.fail("prims nested more than \(USDTextLayer.maximumNesting) levels deep")
        }
        visited += 1
        guard i < count, visited <= count, indexes[i] >= 0, indexes[i] < total else {
          throw r.fail("a path jump or index out of range")
        }
        let here: String
        if parent.isEmpty {
          here = "/"
        } else {
          let token = Int(clamping: elements[i].magnitude)
          guard tokens.indices.contains(token) else { throw r.fail("a path names no token") }
          // A prim's name is an identifier, as in a text layer: one with a `.` or `/` would read
          // as a path to another prim's property (a variant's element, `{set=name}`, is not a
          // prim's name).
          let name = tokens[token]
          let isPrimName = elements[i] >= 0 && name.utf8.first != UInt8(ascii: "{")
          guard !isPrimName || USDTextLayer.isIdentifier(name) else {
            throw r.fail("a prim named '\(name.quotedForMessage)', not an identifier")
          }
          // Made in one allocation (a path a spec: a large layer's thousands).
          var path = ""
          path.reserveCapacity(parent.utf8.count + 1 + name.utf8.count)
          if elements[i] < 0 || parent != "/" { path += parent }
          path += elements[i] < 0 ? "." : "/"
          path += name
          here = path
        }
        paths[Int(indexes[i])] = here
        // A jump can only land inside the list (a larger one is a corrupt file, not an overflow).
        let jump = Int(clamping: Swift.max(-2, Swift.min(jumps[i], Int64(count))))
        let hasChild = jump > 0 || jump == -1, hasSibling = jump >= 0
        if hasChild && hasSibling { stack.append((i + jump, parent, depth)) }
        if hasChild {
          parent = here
          depth += 1
          i += 1
        } else if hasSibling {
          i += 1
        } else {
          break
        }
      }
    }
  }

  private mutating func readSpecs() throws(USDError) {
    var r = try section("SPECS")
    let count = try r.count()
    let pathIndexes = try r.compressedInts(count), sets = try r.compressedInts(count),
      types = try r.compressedInts(count)
    specs = (0..<count).map { (Int(pathIndexes[$0]), Int(sets[$0]), Int(types[$0])) }
    guard specs.allSatisfy({ paths.indices.contains($0.path) && fieldSets.indices.contains($0.fieldSet) })
    else {
      throw r.fail("a spec names no path or field set")
    }
  }

  /// The fields of spec `s`: each name and value representation.
  func fields(ofSpec s: Int) -> [(name: String, rep: UInt64)] {
    var out: [(name: String, rep: UInt64)] = []
    var k = specs[s].fieldSet
    while k < fieldSets.count, fieldSets[k] >= 0 {
      let f = fields[fieldSets[k]]
      out.append((tokens[f.name], f.rep))
      k += 1
    }
    return out
  }
}
