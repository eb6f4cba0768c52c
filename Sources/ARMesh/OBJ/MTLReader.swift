import ARFiles
import Foundation

/// Reads MTL material libraries.
///
/// Knows `newmtl`, `Ka`, `Kd`, `Ks`, `Ke`, `Ns`, `d`, `Tr`, `Ni`, `illum`, `map_Kd`, `map_d`,
/// `map_Bump`/`bump`/`norm`, `map_Ks`, `map_Ke`, with texture options; texture paths (which may
/// contain spaces) are resolved against the MTL file's directory, which they may not leave (`FileReferences`). Statements it does not use
/// (`Tf`, `sharpness`, the PBR extension's `Pr`, `Pm`, …, vendors' own) are warnings, never
/// errors: unknown is not malformed. Text that is not UTF-8 is read as Windows-1252, with a
/// warning.
public enum MTLReader {
  /// Parses MTL text.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - path: The file, for messages and to resolve texture paths.
  ///   - lenient: Turn a `newmtl` without a name (an unnamed material) and material statements
  ///     before any `newmtl` into warnings (they are
  ///     ignored) instead of errors.
  public static func parse(_ bytes: [UInt8], path: String, lenient: Bool = false) throws(OBJError) -> (
    materials: [Material], warnings: [OBJWarning]
  ) {
    let (text, decodingWarnings) = try decodedText(bytes, path: path)
    var warnings = decodingWarnings
    var materials: [Material] = []
    var lineNumber = 0
    for rawLine in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      lineNumber += 1
      guard let statement = try MTLStatement(rawLine, path: path, line: lineNumber) else { continue }
      if statement.keyword == "newmtl" {
        let name = statement.args.joined(separator: " ")
        if name.isEmpty {
          // Exporters do write a bare `newmtl` (assimp's empty_mat.mtl): with `lenient`, an
          // unnamed material, which a bare `usemtl` then names.
          guard lenient else {
            throw .missingArgument(
              path: path, line: lineNumber, column: statement.column, statement: "newmtl")
          }
          warnings.append(
            OBJWarning(
              path: path, line: lineNumber, message: "'newmtl' without a name: an unnamed material (lenient)")
          )
        }
        materials.append(Material(name: name))
        continue
      }
      guard !materials.isEmpty else {
        guard lenient else {
          throw .unknownStatement(
            path: path, line: lineNumber, column: 1, keyword: "\(statement.keyword) (before any newmtl)")
        }
        let message = "'\(statement.keyword)' before any newmtl was ignored (lenient)"
        warnings.append(OBJWarning(path: path, line: lineNumber, message: message))
        continue
      }
      if let warning = try apply(statement, to: &materials[materials.count - 1]) {
        warnings.append(OBJWarning(path: path, line: lineNumber, message: warning))
      }
    }
    return (materials, warnings)
  }

  /// The file's text: UTF-8, or else Windows-1252 with a warning naming the first line that is
  /// not UTF-8.
  /// - Throws: ``OBJError/encoding(path:line:column:reason:)`` for UTF-16 text.
  static func decodedText(_ bytes: [UInt8], path: String) throws(OBJError) -> (String, [OBJWarning]) {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw .encoding(path: path, line: 1, column: 1, reason: "UTF-16 text; MTL files must be UTF-8 or ASCII")
    }
    if let utf8 = String(validating: bytes, as: UTF8.self) { return (utf8, []) }
    let warning = OBJWarning(
      path: path, line: firstInvalidLine(bytes),
      message: "text is not UTF-8; the file is read as Windows-1252 (Latin-1)")
    return (Windows1252.decode(bytes), [warning])
  }

  /// Applies a material statement to `material`; returns a warning for a statement ARScene
  /// does not use.
  static func apply(_ statement: MTLStatement, to material: inout Material)
    throws(OBJError)
    -> String?
  {
    let keyword = statement.keyword
    switch keyword {
    case "Ka": material.ambient = try statement.color()
    case "Kd": material.diffuse = try statement.color()
    case "Ks": material.specular = try statement.color()
    case "Ke": material.emissive = try statement.color()
    case "Ns": material.shininess = try statement.numbers(1...1)[0]
    case "Ni": material.refractionIndex = try statement.numbers(1...1)[0]
    case "d": material.opacity = try statement.numbers(1...1)[0]
    case "Tr": material.opacity = 1 - (try statement.numbers(1...1)[0])
    case "illum":
      guard statement.args.count == 1, let n = Int(statement.args[0]), (0...10).contains(n) else {
        throw statement.badNumber(statement.args.joined(separator: " "))
      }
      material.illuminationModel = n
    case "map_Kd", "map_d", "map_Bump", "map_bump", "bump", "norm", "map_Ks", "map_Ke":
      let texture = try textureReference(
        statement.args, path: statement.path, line: statement.line,
        column: statement.column,
        keyword: keyword)
      switch keyword {
      case "map_Kd": material.diffuseTexture = texture
      case "map_d": material.opacityTexture = texture
      case "map_Ks": material.specularTexture = texture
      case "map_Ke": material.emissiveTexture = texture
      default: material.bumpTexture = texture
      }
    case "Tf", "sharpness", "map_Ka", "map_Ns", "disp", "decal", "refl", "Km", "Pr", "Pm", "Ps", "Pc",
      "Pcr", "aniso", "anisor", "map_Pr", "map_Pm", "map_Ps", "map_RMA", "map_ORM":
      return "'\(keyword)' is not used by ARScene and was ignored"
    default:
      // A vendor's own statement, or a newer extension: not an error in any mode.
      return "unknown statement '\(keyword)' was ignored"
    }
    return nil
  }

  /// Reads and parses the MTL file at `path` (see ``parse(_:path:lenient:)``).
  public static func read(path: String, lenient: Bool = false) throws(OBJError) -> (
    materials: [Material], warnings: [OBJWarning]
  ) {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    return try parse(bytes, path: path, lenient: lenient)
  }

  /// `[options] filename`: options each take a fixed number of arguments; the rest is the file
  /// name, spaces included.
  static func textureReference(
    _ args: [Substring], path: String, line: Int, column: Int, keyword: String
  ) throws(OBJError) -> TextureReference {
    var i = 0
    var reference = TextureReference(path: "")
    reference.declaredIn = (path, line)
    func floats(_ n: ClosedRange<Int>) throws(OBJError) -> [Float] {
      var out: [Float] = []
      while out.count < n.upperBound, i < args.count, let v = Double(args[i]), v.isFinite {
        out.append(Float(v))
        i += 1
      }
      guard out.count >= n.lowerBound else {
        throw .badNumber(path: path, line: line, column: column, text: i < args.count ? String(args[i]) : "")
      }
      return out
    }
    while i < args.count, args[i].hasPrefix("-"), args.count - i > 1 {
      let option = args[i]
      i += 1
      switch option {
      case "-o", "-s", "-t":
        let v = try floats(1...3)
        let vector = SIMD3(
          v[0], v.count > 1 ? v[1] : (option == "-s" ? 1 : 0), v.count > 2 ? v[2] : (option == "-s" ? 1 : 0))
        if option == "-o" { reference.offset = vector } else if option == "-s" { reference.scale = vector }
      case "-bm": reference.bumpMultiplier = try floats(1...1)[0]
      case "-boost", "-texres": _ = try floats(1...1)
      case "-mm": _ = try floats(2...2)
      case "-clamp", "-blendu", "-blendv", "-cc":
        guard i < args.count, args[i] == "on" || args[i] == "off" else {
          throw .badNumber(
            path: path, line: line, column: column, text: "\(option) \(i < args.count ? args[i] : "")")
        }
        let on = args[i] == "on"
        if option == "-clamp" { reference.clamp = on }
        if option == "-blendu" { reference.blend.u = on }
        if option == "-blendv" { reference.blend.v = on }
        i += 1
      case "-imfchan":
        guard i < args.count, let c = args[i].first, "rgbmlz".contains(c), args[i].count == 1 else {
          throw .badNumber(path: path, line: line, column: column, text: "-imfchan")
        }
        reference.channel = c
        i += 1
      case "-type": i += 1
      default:
        throw .unknownStatement(
          path: path, line: line, column: column, keyword: "\(keyword) option \(option)")
      }
    }
    let name = args[i...].joined(separator: " ")
    guard !name.isEmpty else {
      throw .missingArgument(path: path, line: line, column: column, statement: keyword)
    }
    do {
      reference.path = try FileReferences.resolve(name.replacingOccurrences(of: "\\", with: "/"), in: path)
    } catch { throw .refusedReference(path: path, line: line, reason: "\(keyword) \(error.explanation)") }
    return reference
  }

  /// The line of the first byte that is not UTF-8 (1-based).
  static func firstInvalidLine(_ bytes: [UInt8]) -> Int { TextBytes.firstInvalidUTF8(in: bytes)?.line ?? 1 }
}
