import ARFiles
import Foundation

/// An OBJ file loaded with everything it references: its model, the materials of its MTL
/// libraries, and the renderable mesh.
public struct OBJAsset: Sendable {
  /// The OBJ file's path.
  public var path: String
  /// The file as written.
  public var model: OBJModel
  /// The materials defined by the model's MTL libraries, in file order.
  public var libraryMaterials: [Material]
  /// The triangulated mesh; its materials are those `usemtl` uses.
  public var mesh: Mesh
  /// Everything read but not used, and every lenient fallback.
  public var warnings: [OBJWarning]

  /// Loads an OBJ file, its MTL libraries (paths relative to the OBJ file) and checks that
  /// every texture they name exists.
  ///
  /// - Parameters:
  ///   - path: The OBJ file.
  ///   - lenient: Turn a missing MTL library, an undefined material, a missing texture or an
  ///     unknown statement into a warning with a fallback (the default material, no texture)
  ///     instead of an error.
  /// - Throws: ``OBJError`` naming the file and line.
  public static func load(path: String, lenient: Bool = false) throws(OBJError) -> OBJAsset {
    try load(OBJReader.read(path: path, lenient: lenient), path: path, lenient: lenient)
  }

  /// The asset of the OBJ file at `path` whose `bytes` the caller read already (a model is
  /// read once, not again to parse it), as ``load(path:lenient:)`` reads it.
  static func load(bytes: [UInt8], path: String, lenient: Bool) throws(OBJError) -> OBJAsset {
    try load(
      OBJReader.parse(TextBytes.withoutUTF8BOM(bytes), path: path, lenient: lenient), path: path,
      lenient: lenient)
  }

  /// The asset of `model`, parsed from `path`: its material libraries read beside it.
  private static func load(_ model: OBJModel, path: String, lenient: Bool) throws(OBJError) -> OBJAsset {
    var warnings = model.warnings
    var materials: [Material] = []
    for (library, line) in zip(model.materialLibraries, model.materialLibraryLines) {
      let files = try libraryFiles(library, in: path, line: line)
      guard !files.isEmpty else {
        guard lenient else {
          throw .missingFile(path: path, line: line, referenced: library, what: "material library")
        }
        warnings.append(
          OBJWarning(
            path: path, line: line,
            message: "material library '\(library)' not found; using the default material"))
        continue
      }
      for file in files {
        let (defined, mtlWarnings) = try MTLReader.read(path: file, lenient: lenient)
        materials += defined
        warnings += mtlWarnings
      }
    }
    let defined = Set(materials.map(\.name))
    for (name, line) in zip(model.materialNames, model.materialNameLines) where !defined.contains(name) {
      guard lenient else { throw .unknownMaterial(path: path, line: line, name: name) }
      warnings.append(
        OBJWarning(
          path: path, line: line, message: "material '\(name)' is not defined; using the default material"))
    }
    for m in materials.indices {
      for keyPath in [
        \Material.diffuseTexture, \.opacityTexture, \.bumpTexture, \.specularTexture, \.emissiveTexture,
      ] {
        guard let texture = materials[m][keyPath: keyPath],
          !FileManager.default.fileExists(atPath: texture.path)
        else { continue }
        guard lenient else {
          let (mtl, line) = texture.declaredIn
          throw .missingTexture(path: mtl, line: line, texture: texture.path, material: materials[m].name)
        }
        let (mtl, line) = texture.declaredIn
        warnings.append(
          OBJWarning(
            path: mtl, line: line,
            message:
              "texture '\(texture.path)' of material '\(materials[m].name)' not found; drawn without it"))
        materials[m][keyPath: keyPath] = nil
      }
    }
    return OBJAsset(
      path: path, model: model, libraryMaterials: materials, mesh: Mesh(obj: model, materials: materials),
      warnings: warnings)
  }

  /// The files an `mtllib` argument names: the whole argument if such a file exists (names with
  /// spaces), else each space-separated name that exists; empty when none does.
  /// Each name must stay inside the OBJ file's folder (``FileReferences``), or it is an error.
  static func libraryFiles(_ argument: String, in obj: String, line: Int) throws(OBJError) -> [String] {
    func resolved(_ name: some StringProtocol) throws(OBJError) -> String {
      do { return try FileReferences.resolve(String(name), in: obj) } catch {
        throw .refusedReference(path: obj, line: line, reason: "mtllib \(error.explanation)")
      }
    }
    let whole = try resolved(argument)
    if FileManager.default.fileExists(atPath: whole) { return [whole] }
    var parts: [String] = []
    for name in argument.split(separator: " ") { parts.append(try resolved(name)) }
    guard parts.count > 1, parts.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else { return [] }
    return parts
  }
}
