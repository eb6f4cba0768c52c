import ARMath

/// Why an OBJ or MTL file could not be read. Every case names the file and, where there is one,
/// the 1-based line and column (in bytes) of the problem.
public enum OBJError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read.
  case unreadable(path: String, reason: String)
  /// The file is not text a reader can take: UTF-16, or binary data.
  case encoding(path: String, line: Int, column: Int, reason: String)
  /// A number is malformed or not finite.
  case badNumber(path: String, line: Int, column: Int, text: String)
  /// A finite number past single precision (about ±3.4e38), in which vertices, normals, texture
  /// coordinates and colours are kept.
  case pastSinglePrecision(path: String, line: Int, column: Int, text: String)
  /// A vertex whose offset from the file's origin (its first vertex, when that is far from zero)
  /// is past single precision on an axis: `offset` is that offset, in the file's units.
  case pastSinglePrecisionFromOrigin(path: String, line: Int, column: Int, offset: Double)
  /// A statement has the wrong number of values.
  case badArity(path: String, line: Int, column: Int, statement: String, expected: String, got: Int)
  /// A face, line or point index is zero, malformed, or refers to an element not defined yet.
  case badIndex(path: String, line: Int, column: Int, text: String, reason: String)
  /// A face has fewer than 3 corners, a line fewer than 2.
  case tooFewCorners(path: String, line: Int, column: Int, statement: String, count: Int)
  /// A face has more corners than ``OBJModel/maximumFaceCorners``.
  case tooManyCorners(path: String, line: Int, column: Int, maximum: Int)
  /// A statement ARScene does not know.
  case unknownStatement(path: String, line: Int, column: Int, keyword: String)
  /// A statement misses its argument (`usemtl` with no name, `s` with no value).
  case missingArgument(path: String, line: Int, column: Int, statement: String)
  /// An `mtllib` file or a texture is missing (strict mode).
  case missingFile(path: String, line: Int, referenced: String, what: String)
  /// A material's texture is missing (strict mode); `path` and `line` are the MTL's.
  case missingTexture(path: String, line: Int, texture: String, material: String)
  /// An `mtllib` or texture reference leads outside the folders it may reach (see
  /// `FileReferences`); `reason` quotes the reference.
  case refusedReference(path: String, line: Int, reason: String)
  /// `usemtl` names a material no library defines (strict mode).
  case unknownMaterial(path: String, line: Int, name: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      "\(path.escapedForMessage): cannot read: \(reason)"
    case .encoding(let path, let line, let column, let reason):
      "\(path.escapedForMessage):\(line):\(column): \(reason)"
    case .badNumber(let path, let line, let column, let text):
      "\(path.escapedForMessage):\(line):\(column): '\(text.quotedForMessage)' is not a finite number"
    case .pastSinglePrecision(let path, let line, let column, let text):
      "\(path.escapedForMessage):\(line):\(column): '\(text.quotedForMessage)' is past single precision (±3.4e38), in which vertices are kept"
    case .pastSinglePrecisionFromOrigin(let path, let line, let column, let offset):
      "\(path.escapedForMessage):\(line):\(column): the vertex lies \(offset) from the file's first vertex on an axis, past single precision (±3.4e38), in which vertices are kept"
    case .badArity(let path, let line, let column, let statement, let expected, let got):
      "\(path.escapedForMessage):\(line):\(column): '\(statement)' takes \(expected) numbers, got \(got)"
    case .badIndex(let path, let line, let column, let text, let reason):
      "\(path.escapedForMessage):\(line):\(column): bad index '\(text.quotedForMessage)': \(reason)"
    case .tooFewCorners(let path, let line, let column, let statement, let count):
      "\(path.escapedForMessage):\(line):\(column): '\(statement)' needs at least \(statement == "l" ? 2 : 3) vertices, got \(count)"
    case .tooManyCorners(let path, let line, let column, let maximum):
      "\(path.escapedForMessage):\(line):\(column): a face of more than \(maximum) corners (ARScene triangulates faces up to that size)"
    case .unknownStatement(let path, let line, let column, let keyword):
      "\(path.escapedForMessage):\(line):\(column): unknown statement '\(keyword.quotedForMessage)'"
    case .missingArgument(let path, let line, let column, let statement):
      "\(path.escapedForMessage):\(line):\(column): '\(statement)' needs an argument"
    case .missingFile(let path, let line, let referenced, let what):
      "\(path.escapedForMessage):\(line): \(what) '\(referenced.quotedForMessage)' not found"
    case .missingTexture(let path, let line, let texture, let material):
      "\(path.escapedForMessage):\(line): texture '\(texture.quotedForMessage)' of material '\(material.quotedForMessage)' not found"
    case .refusedReference(let path, let line, let reason):
      "\(path.escapedForMessage):\(line): \(reason)"
    case .unknownMaterial(let path, let line, let name):
      "\(path.escapedForMessage):\(line): material '\(name.quotedForMessage)' is not defined by any mtllib"
    }
  }
}
