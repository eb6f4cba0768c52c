import ARFiles
import Foundation

/// Reads MTL material libraries.
///
/// Knows `newmtl`, `Ka`, `Kd`, `Ks`, `Ke`, `Ns`, `d`, `Tr`, `Ni`, `illum`, `map_Kd`, `map_d`,
/// `map_Bump`/`bump`/`norm`, `map_Ks`, `map_Ke`, with texture options; texture paths (which may
/// contain spaces) are resolved against the MTL file's directory. Statements it does not use
/// (`Tf`, `sharpness`, the PBR extension's `Pr`, `Pm`, …, vendors' own) are warnings, never
/// errors: unknown is not malformed. Text that is not UTF-8 is read as Windows-1252, with a
/// warning.
public enum MTLReader {
  /// Parses MTL text.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - path: The file, for messages and to resolve texture paths.
  ///   - lenient: Turn material statements before any `newmtl` into warnings (they are
  ///     ignored) instead of errors.
  public static func parse(_ bytes: [UInt8], path: String, lenient: Bool = false) throws(OBJError) -> (
    materials: [Material], warnings: [OBJWarning]
  ) {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      throw .encoding(path: path, line: 1, column: 1, reason: "UTF-16 text; MTL files must be UTF-8 or ASCII")
    }
    var warnings: [OBJWarning] = []
    let text: String
    if let utf8 = String(validating: bytes, as: UTF8.self) {
      text = utf8
    } else {
      text = Windows1252.decode(bytes)
      warnings.append(
        OBJWarning(
          path: path, line: firstInvalidLine(bytes),
          message: "text is not UTF-8; the file is read as Windows-1252 (Latin-1)"))
    }
    let directory = (path as NSString).deletingLastPathComponent
    var materials: [Material] = []
    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      var line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
      if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard let keyword = fields.first.map(String.init) else { continue }
      if let bad = line.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" }) {
        throw .encoding(
          path: path, line: lineNumber, column: 1,
          reason: "binary data (byte 0x\(String(bad.value, radix: 16))); not an MTL text file")
      }
      let args = Array(fields.dropFirst())
      let column = line.distance(from: line.startIndex, to: fields[0].endIndex) + 2
      func numbers(_ allowed: ClosedRange<Int>) throws(OBJError) -> [Float] {
        guard allowed.contains(args.count) else {
          throw .badArity(
            path: path, line: lineNumber, column: column, statement: keyword,
            expected: allowed.count == 1
              ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)", got: args.count)
        }
        var out: [Float] = []
        for a in args {
          guard let v = Double(a), v.isFinite else {
            throw .badNumber(path: path, line: lineNumber, column: column, text: String(a))
          }
          out.append(Float(v))
        }
        return out
      }
      func color() throws(OBJError) -> SIMD3<Float> {
        if args.first == "spectral" || args.first == "xyz" {
          throw .badNumber(path: path, line: lineNumber, column: column, text: args.joined(separator: " "))
        }
        let v = try numbers(1...3)
        return v.count == 1
          ? SIMD3(repeating: v[0]) : (v.count == 3 ? SIMD3(v[0], v[1], v[2]) : SIMD3(v[0], v[1], v[1]))
      }
      if keyword == "newmtl" {
        let name = args.joined(separator: " ")
        guard !name.isEmpty else {
          throw .missingArgument(path: path, line: lineNumber, column: column, statement: "newmtl")
        }
        materials.append(Material(name: name))
        continue
      }
      guard !materials.isEmpty else {
        guard lenient else {
          throw .unknownStatement(
            path: path, line: lineNumber, column: 1, keyword: "\(keyword) (before any newmtl)")
        }
        let message = "'\(keyword)' before any newmtl was ignored (lenient)"
        warnings.append(OBJWarning(path: path, line: lineNumber, message: message))
        continue
      }
      let m = materials.count - 1
      switch keyword {
      case "Ka": materials[m].ambient = try color()
      case "Kd": materials[m].diffuse = try color()
      case "Ks": materials[m].specular = try color()
      case "Ke": materials[m].emissive = try color()
      case "Ns": materials[m].shininess = try numbers(1...1)[0]
      case "Ni": materials[m].refractionIndex = try numbers(1...1)[0]
      case "d": materials[m].opacity = try numbers(1...1).last!
      case "Tr": materials[m].opacity = 1 - (try numbers(1...1)[0])
      case "illum":
        guard args.count == 1, let n = Int(args[0]), (0...10).contains(n) else {
          throw .badNumber(path: path, line: lineNumber, column: column, text: args.joined(separator: " "))
        }
        materials[m].illuminationModel = n
      case "map_Kd", "map_d", "map_Bump", "map_bump", "bump", "norm", "map_Ks", "map_Ke":
        let texture = try textureReference(
          args, directory: directory, path: path, line: lineNumber, column: column, keyword: keyword)
        switch keyword {
        case "map_Kd": materials[m].diffuseTexture = texture
        case "map_d": materials[m].opacityTexture = texture
        case "map_Ks": materials[m].specularTexture = texture
        case "map_Ke": materials[m].emissiveTexture = texture
        default: materials[m].bumpTexture = texture
        }
      case "Tf", "sharpness", "map_Ka", "map_Ns", "disp", "decal", "refl", "Km", "Pr", "Pm", "Ps", "Pc",
        "Pcr", "aniso", "anisor", "map_Pr", "map_Pm", "map_Ps", "map_RMA", "map_ORM":
        warnings.append(
          OBJWarning(
            path: path, line: lineNumber, message: "'\(keyword)' is not used by ARScene and was ignored"))
      default:
        // A vendor's own statement, or a newer extension: not an error in any mode.
        warnings.append(
          OBJWarning(path: path, line: lineNumber, message: "unknown statement '\(keyword)' was ignored"))
      }
    }
    return (materials, warnings)
  }

  /// Reads and parses the MTL file at `path` (see ``parse(_:path:lenient:)``).
  public static func read(path: String, lenient: Bool = false) throws(OBJError) -> (
    materials: [Material], warnings: [OBJWarning]
  ) {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch { throw .unreadable(path: path, reason: error.description) }
    return try parse(bytes, path: path, lenient: lenient)
  }

  /// `[options] filename`: options each take a fixed number of arguments; the rest is the file
  /// name, spaces included.
  static func textureReference(
    _ args: [Substring], directory: String, path: String, line: Int, column: Int, keyword: String
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
    reference.path = resolve(name.replacingOccurrences(of: "\\", with: "/"), against: directory)
    return reference
  }

  /// `name` relative to `directory` unless absolute.
  static func resolve(_ name: String, against directory: String) -> String {
    name.hasPrefix("/") || directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
  }

  static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
    var line = 1, start = 0
    for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") {
      if String(validating: bytes[start..<i], as: UTF8.self) == nil { return line }
      line += 1
      start = i + 1
    }
    return line
  }
}
