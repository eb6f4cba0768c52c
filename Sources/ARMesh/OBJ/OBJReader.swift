import ARFiles
import ARMath

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads Wavefront OBJ text into an ``OBJModel``.
///
/// Takes what exporters write: `v` with optional weight or colour, `vt` with 1–3 components,
/// `vn`; `f` in every index form (`v`, `v/vt`, `v//vn`, `v/vt/vn`) with negative (relative)
/// indices; `l`, `p`, `o`, `g`, `s`, `usemtl`, `mtllib` anywhere, names with spaces; comments, `\`
/// line continuations, CRLF, no final newline, numbers like `1e-3`, `.5`, `+1`, `-0`. Free-form
/// geometry and display attributes are recorded as warnings. Anything else is an error with
/// file, line and column; nothing is half-loaded.
public struct OBJReader {
  /// Parses OBJ text.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents: UTF-8 or ASCII (a UTF-8 byte-order mark is skipped); names
  ///     that are not UTF-8 are read as Windows-1252, with a warning.
  ///   - path: The file name, for messages.
  ///   - lenient: Report unknown statements as warnings instead of errors.
  public static func parse(_ bytes: [UInt8], path: String, lenient: Bool = false) throws(OBJError) -> OBJModel
  {
    var reader = OBJReader(path: path, lenient: lenient)
    let result = bytes.withUnsafeBufferPointer { buffer in
      Result { () throws(OBJError) in try reader.run(buffer) }
    }
    try result.get()
    return reader.model
  }

  /// Reads and parses the file at `path`.
  public static func read(path: String, lenient: Bool = false) throws(OBJError) -> OBJModel {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    return try parse(bytes, path: path, lenient: lenient)
  }

  // MARK: - State

  let path: String
  let lenient: Bool
  var model = OBJModel()
  var lineNumber = 0
  var currentObject = -1, currentGroup = -1, currentMaterial = -1
  var currentSmoothing: UInt32 = 0
  var stateChanged = true
  var objectIndex: [String: Int] = [:], groupIndex: [String: Int] = [:], materialIndex: [String: Int] = [:]
  var warnedKeywords: Set<String> = []

  init(path: String, lenient: Bool) {
    self.path = path
    self.lenient = lenient
  }

  // MARK: - Lines

  mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) throws(OBJError) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    let count = buffer.count
    // Old Mac files end each line with a lone CR: with no LF anywhere, read them as LFs (the
    // hot loop below then searches for LF alone, as for every other file).
    if memchr(base, Int32(UInt8(ascii: "\n")), count) == nil,
      memchr(base, Int32(UInt8(ascii: "\r")), count) != nil
    {
      let unixLines = buffer.map { $0 == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : $0 }
      let result = unixLines.withUnsafeBufferPointer { lines in
        Result { () throws(OBJError) in try run(lines) }
      }
      return try result.get()
    }
    var start = 0
    if count >= 2 && ((base[0] == 0xFF && base[1] == 0xFE) || (base[0] == 0xFE && base[1] == 0xFF)) {
      throw .encoding(path: path, line: 1, column: 1, reason: "UTF-16 text; OBJ files must be UTF-8 or ASCII")
    }
    if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { start = 3 }
    var joined: [UInt8] = []
    while start < count {
      lineNumber += 1
      var end = lineEnd(base, from: start, count: count)
      var next = end + 1
      // A backslash before the newline continues the statement on the next line.
      if continues(base, start, end) {
        joined.removeAll(keepingCapacity: true)
        let first = lineNumber
        var s = start, e = end
        while true {
          var stop = e
          if stop > s && base[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
          let isContinued = stop > s && base[stop - 1] == UInt8(ascii: "\\")
          joined.append(
            contentsOf: UnsafeBufferPointer(start: base + s, count: (isContinued ? stop - 1 : stop) - s))
          guard isContinued, e < count else { break }
          joined.append(UInt8(ascii: " "))
          s = e + 1
          e = lineEnd(base, from: s, count: count)
          lineNumber += 1
        }
        next = e + 1
        let last = lineNumber
        lineNumber = first
        let result = joined.withUnsafeBufferPointer { j in
          Result { () throws(OBJError) in try statement(j.baseAddress!, 0, j.count) }
        }
        try result.get()
        lineNumber = last
        start = next
        continue
      }
      if end > start && base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
      try statement(base, start, end)
      start = next
    }
  }

  @inline(__always)
  func lineEnd(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
    guard let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) else { return count }
    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
  }

  @inline(__always)
  func continues(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    var e = end
    if e > start && base[e - 1] == UInt8(ascii: "\r") { e -= 1 }
    return e > start && base[e - 1] == UInt8(ascii: "\\")
  }

  // MARK: - Statements

  mutating func statement(_ p: UnsafePointer<UInt8>, _ lineStart: Int, _ end: Int) throws(OBJError) {
    var i = skipSpaces(p, lineStart, end)
    guard i < end, p[i] != UInt8(ascii: "#") else { return }
    let keywordStart = i
    while i < end, p[i] != UInt8(ascii: " "), p[i] != UInt8(ascii: "\t") { i += 1 }
    let length = i - keywordStart
    let k0 = p[keywordStart], k1 = length > 1 ? p[keywordStart + 1] : 0
    let column = { (index: Int) in index - lineStart + 1 }
    switch (length, k0, k1) {
    case (1, UInt8(ascii: "v"), _):
      try vertex(p, i, end, lineStart)
    case (2, UInt8(ascii: "v"), UInt8(ascii: "t")):
      let (values, count) = try numbers(p, i, end, lineStart, max: 3, statement: "vt", allowed: "1 to 3")
      guard count >= 1 else {
        throw .badArity(
          path: path, line: lineNumber, column: column(i), statement: "vt", expected: "1 to 3", got: 0)
      }
      model.texcoords.append(SIMD3(Float(values[0]), Float(values[1]), Float(values[2])))
    case (2, UInt8(ascii: "v"), UInt8(ascii: "n")):
      let (values, count) = try numbers(p, i, end, lineStart, max: 3, statement: "vn", allowed: "3")
      guard count == 3 else {
        throw .badArity(
          path: path, line: lineNumber, column: column(i), statement: "vn", expected: "3", got: count)
      }
      model.normals.append(SIMD3(Float(values[0]), Float(values[1]), Float(values[2])))
    case (1, UInt8(ascii: "f"), _), (2, UInt8(ascii: "f"), UInt8(ascii: "o")):
      try face(p, i, end, lineStart)
    case (1, UInt8(ascii: "l"), _):
      let corners = try cornerList(p, i, end, lineStart, statement: "l")
      guard corners.count >= 2 else {
        throw .tooFewCorners(
          path: path, line: lineNumber, column: column(keywordStart), statement: "l", count: corners.count)
      }
      model.lines.append(corners)
    case (1, UInt8(ascii: "p"), _):
      let corners = try cornerList(p, i, end, lineStart, statement: "p")
      guard !corners.isEmpty else {
        throw .missingArgument(path: path, line: lineNumber, column: column(keywordStart), statement: "p")
      }
      model.points.append(contentsOf: corners)
    case (1, UInt8(ascii: "o"), _):
      let name = try restOfLine(p, i, end, lineStart, statement: "o", defaultName: "default")
      currentObject = intern(name, &model.objectNames, &objectIndex)
      stateChanged = true
    case (1, UInt8(ascii: "g"), _):
      let name = try restOfLine(p, i, end, lineStart, statement: "g", defaultName: "default")
      currentGroup = intern(name, &model.groupNames, &groupIndex)
      stateChanged = true
    case (1, UInt8(ascii: "s"), _):
      try smoothing(p, i, end, lineStart)
    default:
      let keyword = try text(p, keywordStart, i, lineStart)
      switch keyword {
      case "usemtl":
        // Exporters write a bare `usemtl` for "no material": the default one, as before any.
        let name = try restOfLine(p, i, end, lineStart, statement: "usemtl", defaultName: "")
        guard !name.isEmpty else {
          currentMaterial = -1
          stateChanged = true
          break
        }
        let before = model.materialNames.count
        currentMaterial = intern(name, &model.materialNames, &materialIndex)
        if model.materialNames.count > before { model.materialNameLines.append(lineNumber) }
        stateChanged = true
      case "mtllib":
        model.materialLibraries.append(
          try restOfLine(p, i, end, lineStart, statement: "mtllib", defaultName: nil))
        model.materialLibraryLines.append(lineNumber)
      case "vp", "cstype", "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv",
        "sp", "end",
        "con", "rat":
        warnOnce(keyword, "free-form geometry ('\(keyword)') is not supported and was ignored")
      case "mg", "bevel", "c_interp", "d_interp", "lod", "maplib", "usemap", "shadow_obj", "trace_obj",
        "ctech", "stech":
        warnOnce(keyword, "display attribute '\(keyword)' has no effect here and was ignored")
      default:
        guard lenient else {
          throw .unknownStatement(
            path: path, line: lineNumber, column: column(keywordStart), keyword: keyword)
        }
        warnOnce(keyword, "unknown statement '\(keyword)' ignored (lenient)")
      }
    }
  }

  mutating func vertex(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int) throws(OBJError)
  {
    let (values, count) = try numbers(p, from, end, lineStart, max: 6, statement: "v", allowed: "3, 4 or 6")
    guard count == 3 || count == 4 || count == 6 else {
      throw .badArity(
        path: path, line: lineNumber, column: from - lineStart + 1, statement: "v", expected: "3, 4 or 6",
        got: count)
    }
    let position = SIMD3(values[0], values[1], values[2])
    if model.positions.isEmpty,
      max(abs(position.x), abs(position.y), abs(position.z)) >= OBJModel.originDistance
    {
      model.origin = position.rounded(.toNearestOrAwayFromZero)
    }
    let offset = position - model.origin
    let stored = SIMD3(Float(offset.x), Float(offset.y), Float(offset.z))
    // Each coordinate fits a Float; its distance from a far first vertex may not.
    guard stored.isFinite else {
      let farthest = [offset.x, offset.y, offset.z].max { abs($0) < abs($1) }!
      throw .pastSinglePrecisionFromOrigin(
        path: path, line: lineNumber, column: from - lineStart + 1, offset: farthest)
    }
    model.bounds.formUnion(position)
    model.positions.append(stored)
    if count == 6 {
      if model.colors.count < model.positions.count - 1 {
        model.colors.append(
          contentsOf: repeatElement(SIMD3(1, 1, 1), count: model.positions.count - 1 - model.colors.count))
      }
      model.colors.append(SIMD3(Float(values[3]), Float(values[4]), Float(values[5])))
    } else if !model.colors.isEmpty {
      model.colors.append(SIMD3(1, 1, 1))
    }
  }

  mutating func face(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int) throws(OBJError) {
    let before = model.corners.count
    var i = skipSpaces(p, from, end)
    while i < end {
      let corner = try self.corner(p, &i, end, lineStart, statement: "f")
      model.corners.append(corner)
      i = skipSpaces(p, i, end)
      guard model.corners.count - before <= OBJModel.maximumFaceCorners else {
        model.corners.removeLast(model.corners.count - before)
        throw .tooManyCorners(
          path: path, line: lineNumber, column: from - lineStart, maximum: OBJModel.maximumFaceCorners)
      }
    }
    let count = model.corners.count - before
    guard count >= 3 else {
      model.corners.removeLast(count)
      throw .tooFewCorners(
        path: path, line: lineNumber, column: from - lineStart, statement: "f", count: count)
    }
    if stateChanged {
      let run = OBJFaceRun(
        firstFace: model.faceCount, object: currentObject, group: currentGroup, material: currentMaterial,
        smoothingGroup: currentSmoothing)
      if let last = model.faceRuns.last, last.firstFace == run.firstFace {
        model.faceRuns[model.faceRuns.count - 1] = run
      } else if model.faceRuns.last.map({ !sameState($0, run) }) ?? true {
        model.faceRuns.append(run)
      }
      stateChanged = false
    }
    model.faceStarts.append(model.corners.count)
  }

  func sameState(_ a: OBJFaceRun, _ b: OBJFaceRun) -> Bool {
    a.object == b.object && a.group == b.group && a.material == b.material
      && a.smoothingGroup == b.smoothingGroup
  }

  mutating func cornerList(
    _ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int, statement: String
  ) throws(OBJError) -> [OBJCorner] {
    var corners: [OBJCorner] = []
    var i = skipSpaces(p, from, end)
    while i < end {
      corners.append(try corner(p, &i, end, lineStart, statement: statement))
      i = skipSpaces(p, i, end)
    }
    return corners
  }

  /// One `v`, `v/vt`, `v//vn` or `v/vt/vn` corner, indices resolved to 0-based.
  @inline(__always)
  func corner(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, _ lineStart: Int, statement: String
  ) throws(OBJError) -> OBJCorner {
    let tokenStart = i
    var result = OBJCorner(position: -1)
    result.position = try index(
      p, &i, end, lineStart, tokenStart, count: model.positions.count, what: "vertex")
    if i < end && p[i] == UInt8(ascii: "/") {
      i += 1
      if i < end && p[i] != UInt8(ascii: "/") {
        result.texcoord = try index(
          p, &i, end, lineStart, tokenStart, count: model.texcoords.count, what: "texture coordinate")
      }
      if i < end && p[i] == UInt8(ascii: "/") {
        i += 1
        guard statement == "f" else {
          throw badIndex(p, tokenStart, end, lineStart, "'\(statement)' takes no normals")
        }
        result.normal = try index(
          p, &i, end, lineStart, tokenStart, count: model.normals.count, what: "normal")
      }
    }
    if i < end && p[i] != UInt8(ascii: " ") && p[i] != UInt8(ascii: "\t") {
      throw badIndex(p, tokenStart, end, lineStart, "unexpected character")
    }
    return result
  }

  /// A 1-based index (negative: relative to the end so far) resolved to 0-based.
  @inline(__always)
  func index(
    _ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, _ lineStart: Int, _ tokenStart: Int, count: Int,
    what: String
  ) throws(OBJError) -> Int32 {
    var negative = false
    if i < end && p[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var value = 0, digits = 0
    while i < end, p[i] &- 48 < 10 {
      if value < Int(Int32.max) { value = value * 10 + Int(p[i] &- 48) }
      digits += 1
      i += 1
    }
    guard digits > 0 else { throw badIndex(p, tokenStart, end, lineStart, "not an index") }
    guard value != 0 else {
      throw badIndex(p, tokenStart, end, lineStart, "indices start at 1 (0 is not allowed)")
    }
    let resolved = negative ? count - value : value - 1
    guard resolved >= 0 && resolved < count else {
      throw badIndex(
        p, tokenStart, end, lineStart,
        "refers to \(what) \(negative ? -value : value), but only \(count) defined before this line")
    }
    return Int32(resolved)
  }

  /// Up to `max` (at most 8) numbers, in the lanes of the result; more is an error.
  func numbers(
    _ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int, max: Int, statement: String,
    allowed: String
  ) throws(OBJError) -> (SIMD8<Double>, Int) {
    var values = SIMD8<Double>()
    var count = 0
    var i = skipSpaces(p, from, end)
    while i < end {
      guard count < max else {
        throw .badArity(
          path: path, line: lineNumber, column: i - lineStart + 1, statement: statement, expected: allowed,
          got: count + 1)
      }
      guard let (value, next) = DecimalParser.parse(p, from: i, to: end) else {
        throw badNumber(p, i, end, lineStart)
      }
      // Every value is kept as a Float: one past its range would become infinite.
      guard abs(value) <= Double(Float.greatestFiniteMagnitude) else {
        throw .pastSinglePrecision(
          path: path, line: lineNumber, column: i - lineStart + 1, text: token(p, i, end))
      }
      values[count] = value
      count += 1
      i = skipSpaces(p, next, end)
    }
    return (values, count)
  }

  mutating func smoothing(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int)
    throws(OBJError)
  {
    let value = try restOfLine(p, from, end, lineStart, statement: "s", defaultName: nil)
    if value == "off" {
      currentSmoothing = 0
    } else if let n = UInt32(value) {
      currentSmoothing = n
    } else {
      throw .badNumber(
        path: path, line: lineNumber, column: skipSpaces(p, from, end) - lineStart + 1, text: value)
    }
    stateChanged = true
  }

  // MARK: - Helpers

  @inline(__always)
  func skipSpaces(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
    var i = from
    while i < end, p[i] == UInt8(ascii: " ") || p[i] == UInt8(ascii: "\t") { i += 1 }
    return i
  }

  /// The trimmed rest of the line as a name; `defaultName` when empty (or an error if `nil`).
  mutating func restOfLine(
    _ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int, statement: String,
    defaultName: String?
  ) throws(OBJError) -> String {
    var s = skipSpaces(p, from, end), e = end
    while e > s, p[e - 1] == UInt8(ascii: " ") || p[e - 1] == UInt8(ascii: "\t") { e -= 1 }
    // A trailing comment is not part of the name.
    if let hash = (s..<e).first(where: { p[$0] == UInt8(ascii: "#") }) {
      e = hash
      while e > s, p[e - 1] == UInt8(ascii: " ") || p[e - 1] == UInt8(ascii: "\t") { e -= 1 }
    }
    guard e > s else {
      if let defaultName { return defaultName }
      throw .missingArgument(path: path, line: lineNumber, column: from - lineStart + 1, statement: statement)
    }
    if s == e { s = e }
    return try text(p, s, e, lineStart)
  }

  /// Bytes as a string: UTF-8, or else Windows-1252 (Latin-1 names, as Windows exporters write
  /// them) with a warning; control characters (binary data) are refused.
  mutating func text(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ lineStart: Int) throws(OBJError)
    -> String
  {
    let bytes = UnsafeBufferPointer(start: p + from, count: end - from)
    if let bad = bytes.firstIndex(where: { $0 < 0x20 && $0 != 0x09 }) {
      throw .encoding(
        path: path, line: lineNumber, column: from + bad - lineStart + 1,
        reason: "binary data (byte 0x\(String(bytes[bad], radix: 16))); not an OBJ text file")
    }
    guard let string = String(validating: bytes, as: UTF8.self) else {
      warnOnce(
        "text encoding", "text is not UTF-8; names are read as Windows-1252 (Latin-1) from this line on")
      return Windows1252.decode(bytes)
    }
    return string
  }

  func intern(_ name: String, _ names: inout [String], _ index: inout [String: Int]) -> Int {
    if let i = index[name] { return i }
    names.append(name)
    index[name] = names.count - 1
    return names.count - 1
  }

  mutating func warnOnce(_ keyword: String, _ message: String) {
    guard warnedKeywords.insert(keyword).inserted else { return }
    model.warnings.append(OBJWarning(path: path, line: lineNumber, message: message))
  }

  func token(_ p: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> String {
    var e = from
    while e < end, p[e] != UInt8(ascii: " "), p[e] != UInt8(ascii: "\t") { e += 1 }
    return String(decoding: UnsafeBufferPointer(start: p + from, count: e - from), as: UTF8.self)
  }

  func badNumber(_ p: UnsafePointer<UInt8>, _ at: Int, _ end: Int, _ lineStart: Int) -> OBJError {
    .badNumber(path: path, line: lineNumber, column: at - lineStart + 1, text: token(p, at, end))
  }

  func badIndex(_ p: UnsafePointer<UInt8>, _ at: Int, _ end: Int, _ lineStart: Int, _ reason: String)
    -> OBJError
  {
    .badIndex(
      path: path, line: lineNumber, column: at - lineStart + 1, text: token(p, at, end), reason: reason)
  }
}
