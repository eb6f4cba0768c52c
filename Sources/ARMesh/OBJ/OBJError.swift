/// Why an OBJ or MTL file could not be read. Every case names the file and, where there is one,
/// the 1-based line and column (in bytes) of the problem.
public enum OBJError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not text a reader can take: UTF-16, or binary data.
  case encoding(path: String, line: Int, column: Int, reason: String)
  /// A number is malformed or not finite.
  case badNumber(path: String, line: Int, column: Int, text: String)
  /// A statement has the wrong number of values.
  case badArity(path: String, line: Int, column: Int, statement: String, expected: String, got: Int)
  /// A face, line or point index is zero, malformed, or refers to an element not defined yet.
  case badIndex(path: String, line: Int, column: Int, text: String, reason: String)
  /// A face has fewer than 3 corners, a line fewer than 2.
  case tooFewCorners(path: String, line: Int, column: Int, statement: String, count: Int)
  /// A statement ARScene does not know.
  case unknownStatement(path: String, line: Int, column: Int, keyword: String)
  /// A statement misses its argument (`usemtl` with no name, `s` with no value).
  case missingArgument(path: String, line: Int, column: Int, statement: String)
  /// An `mtllib` file or a texture is missing (strict mode).
  case missingFile(path: String, line: Int, referenced: String, what: String)
  /// A material's texture is missing (strict mode); `path` and `line` are the MTL's.
  case missingTexture(path: String, line: Int, texture: String, material: String)
  /// `usemtl` names a material no library defines (strict mode).
  case unknownMaterial(path: String, line: Int, name: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "\(path): cannot read: \(reason)"
    case .encoding(let path, let line, let column, let reason):
      "\(path):\(line):\(column): \(reason)"
    case .badNumber(let path, let line, let column, let text):
      "\(path):\(line):\(column): '\(text.quotedForMessage)' is not a finite number"
    case .badArity(let path, let line, let column, let statement, let expected, let got):
      "\(path):\(line):\(column): '\(statement)' takes \(expected) numbers, got \(got)"
    case .badIndex(let path, let line, let column, let text, let reason):
      "\(path):\(line):\(column): bad index '\(text.quotedForMessage)': \(reason)"
    case .tooFewCorners(let path, let line, let column, let statement, let count):
      "\(path):\(line):\(column): '\(statement)' needs at least \(statement == "l" ? 2 : 3) vertices, got \(count)"
    case .unknownStatement(let path, let line, let column, let keyword):
      "\(path):\(line):\(column): unknown statement '\(keyword)'"
    case .missingArgument(let path, let line, let column, let statement):
      "\(path):\(line):\(column): '\(statement)' needs an argument"
    case .missingFile(let path, let line, let referenced, let what):
      "\(path):\(line): \(what) '\(referenced)' not found"
    case .missingTexture(let path, let line, let texture, let material):
      "\(path):\(line): texture '\(texture)' of material '\(material)' not found"
    case .unknownMaterial(let path, let line, let name):
      "\(path):\(line): material '\(name)' is not defined by any mtllib"
    }
  }
}
