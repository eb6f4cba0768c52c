import Foundation

extension Mesh {
  /// The mesh as OBJ text: one `v`/`vt`/`vn` per vertex (colours on `v` when present), then the
  /// triangles of each submesh after its `usemtl`, with 1-based `v/vt/vn` indices.
  ///
  /// Numbers are written as the shortest decimal that reads back to the same `Float` (positions
  /// of a mesh with an ``origin``: to the same `Double`, origin added), so reading the text
  /// gives this mesh again exactly.
  ///
  /// - Parameter materialLibrary: The `mtllib` line's file name, or `nil` for none.
  public func objText(materialLibrary: String? = nil) -> String {
    var out = "# Written by ARScene: \(vertexCount) vertices, \(triangleCount) triangles\n"
    if let materialLibrary { out += "mtllib \(materialLibrary)\n" }
    for (i, p) in positions.enumerated() {
      if origin == .zero {
        out += "v \(p.x) \(p.y) \(p.z)"
      } else {
        let q = modelPosition(i)
        out += "v \(q.x) \(q.y) \(q.z)"
      }
      if !colors.isEmpty { out += " \(colors[i].x) \(colors[i].y) \(colors[i].z)" }
      out += "\n"
    }
    for t in texcoords { out += "vt \(t.x) \(t.y)\n" }
    for n in normals { out += "vn \(n.x) \(n.y) \(n.z)\n" }
    let corner: (UInt32) -> String =
      texcoords.isEmpty ? { "\($0 + 1)//\($0 + 1)" } : { "\($0 + 1)/\($0 + 1)/\($0 + 1)" }
    for submesh in submeshes {
      out += "usemtl \(materials[submesh.material].name)\n"
      for t in submesh.triangles {
        out += "f \(corner(indices[3 * t])) \(corner(indices[3 * t + 1])) \(corner(indices[3 * t + 2]))\n"
      }
    }
    return out
  }

  /// MTL text for the mesh's materials. Texture paths are written relative to `directory` (the
  /// MTL file's folder) when they lie below it, else absolute.
  public func mtlText(relativeTo directory: String) -> String {
    var out = "# Written by ARScene\n"
    func color(_ c: SIMD3<Float>) -> String { "\(c.x) \(c.y) \(c.z)" }
    for m in materials {
      out += "\nnewmtl \(m.name)\nKa \(color(m.ambient))\nKd \(color(m.diffuse))\nKs \(color(m.specular))\n"
      out +=
        "Ke \(color(m.emissive))\nNs \(m.shininess)\nNi \(m.refractionIndex)\nd \(m.opacity)\nillum \(m.illuminationModel)\n"
      let maps: [(String, TextureReference?)] = [
        ("map_Kd", m.diffuseTexture), ("map_d", m.opacityTexture), ("map_Bump", m.bumpTexture),
        ("map_Ks", m.specularTexture), ("map_Ke", m.emissiveTexture),
      ]
      for (keyword, texture) in maps {
        guard let t = texture else { continue }
        var options = ""
        if t.offset != .zero { options += "-o \(t.offset.x) \(t.offset.y) \(t.offset.z) " }
        if t.scale != SIMD3(1, 1, 1) { options += "-s \(t.scale.x) \(t.scale.y) \(t.scale.z) " }
        if t.clamp { options += "-clamp on " }
        if t.bumpMultiplier != 1 { options += "-bm \(t.bumpMultiplier) " }
        out += "\(keyword) \(options)\(Self.relativePath(t.path, from: directory))\n"
      }
    }
    return out
  }

  /// `path` relative to `directory` when it lies below it, else `path` made absolute.
  static func relativePath(_ path: String, from directory: String) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    let base = URL(fileURLWithPath: directory.isEmpty ? "." : directory).standardizedFileURL.path
    let prefix = base.hasSuffix("/") ? base : base + "/"
    return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
  }
}
