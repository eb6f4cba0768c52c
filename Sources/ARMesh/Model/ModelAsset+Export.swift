import ARFiles
import Foundation

extension ModelAsset {
  /// The files that write this model at `path` in the format its extension names: `.glb`,
  /// `.gltf` (buffer in a `data:` URI) or `.obj` (with an MTL beside it, and the textures inside
  /// the model written out beside them as `NAME-texture-N.png`, `.jpg`, `.ktx2` or `.webp`), by
  /// path, each to be written whole.
  ///
  /// - Throws: ``ModelError`` for an extension that is none of these, or a texture that cannot
  ///   be read or is not a PNG, JPEG, KTX2 or WebP image.
  public func exported(to path: String) throws(ModelError) -> [(path: String, bytes: [UInt8])] {
    switch (path as NSString).pathExtension.lowercased() {
    case "glb":
      do { return [(path, try GLTFWriter(self).glb())] } catch { throw .gltf(error) }
    case "gltf":
      do { return [(path, try GLTFWriter(self).gltf())] } catch { throw .gltf(error) }
    case "obj": return try objFiles(path)
    default:
      throw .unsupported(path: path, reason: "writes .glb, .gltf or .obj, told by the output's extension")
    }
  }

  /// What writing this model at `path` leaves out, a sentence a material: the maps the format
  /// written carries no image for (a `.glb` or `.gltf` only the base colour's; an `.obj` only
  /// the diffuse and emissive ones), so that a converted model drawn differently is said.
  public func exportWarnings(to path: String) -> [String] {
    let obj = (path as NSString).pathExtension.lowercased() == "obj"
    let maps: [(String, KeyPath<Material, TextureReference?>)] = [
      ("emissive", \.emissiveTexture), ("opacity", \.opacityTexture),
      ("metallic-roughness", \.metallicRoughnessTexture), ("metallic", \.metallicTexture),
      ("roughness", \.roughnessTexture), ("normal", \.normalTexture), ("occlusion", \.occlusionTexture),
    ]
    return mesh.materials.compactMap { material in
      let left = maps.filter { name, keyPath in
        material[keyPath: keyPath] != nil && !(obj && ["emissive", "opacity"].contains(name))
      }.map(\.0)
      guard !left.isEmpty else { return nil }
      return "\(self.path): material \(material.name): its \(left.joined(separator: ", ")) "
        + "map\(left.count == 1 ? " is" : "s are") not written to \(path) (drawn without)"
    }
  }

  /// The OBJ, its MTL and the embedded textures made files.
  private func objFiles(_ path: String) throws(ModelError) -> [(path: String, bytes: [UInt8])] {
    let stem = (path as NSString).deletingPathExtension
    let directory = PathNames.folder(of: path)
    var files: [(path: String, bytes: [UInt8])] = []
    var mesh = self.mesh
    var written: [String: String] = [:]
    for m in mesh.materials.indices {
      for keyPath in [\Material.diffuseTexture, \.emissiveTexture] {
        guard let texture = mesh.materials[m][keyPath: keyPath], let bytes = embeddedImages[texture.path]
        else {
          continue
        }
        if written[texture.path] == nil {
          guard let kind = EncodedImageKind(bytes) else {
            throw .unsupported(path: texture.path, reason: EncodedImageKind.unknownReason)
          }
          let file = "\(stem)-texture-\(written.count).\(kind.fileExtension)"
          files.append((file, bytes))
          written[texture.path] = file
        }
        mesh.materials[m][keyPath: keyPath] = TextureReference(path: written[texture.path]!)
      }
    }
    let mtl = stem + ".mtl"
    files.append((mtl, Array(mesh.mtlText(relativeTo: directory).utf8)))
    files.append((path, Array(mesh.objText(materialLibrary: (mtl as NSString).lastPathComponent).utf8)))
    return files
  }
}
