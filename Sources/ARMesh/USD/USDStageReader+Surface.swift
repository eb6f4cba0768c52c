extension USDStageReader {
  /// The `UsdPreviewSurface` shader under the material at `path` as a material: its diffuse
  /// colour (constant, or a `UsdUVTexture`'s image from the package, whose bytes go into
  /// `images`), emissive colour and opacity; nil when there is none.
  func previewSurface(of path: String, images: inout [String: [UInt8]]) -> Material? {
    guard
      let shader = prims.first(where: { prim in
        guard prim.type == "Shader", prim.path.hasPrefix(path + "/"),
          case .token("UsdPreviewSurface")? = values[prim.path + ".info:id"]
        else { return false }
        return true
      })
    else { return nil }
    var material = Material(name: String(path.split(separator: "/").last ?? "material"))
    func colour(_ input: String) -> SIMD3<Float>? {
      guard case .vector(let c)? = values[shader.path + ".inputs:" + input] else { return nil }
      return SIMD3(Float(c.x), Float(c.y), Float(c.z))
    }
    material.diffuse = colour("diffuseColor") ?? SIMD3(0.18, 0.18, 0.18)
    material.emissive = colour("emissiveColor") ?? .zero
    if case .double(let opacity)? = values[shader.path + ".inputs:opacity"] {
      material.opacity = Float(opacity)
    }
    if let file = textureFile(feeding: shader.path + ".inputs:diffuseColor"), let bytes = packageFiles[file] {
      let key = layer.path + "#" + file
      images[key] = Array(bytes)
      material.diffuseTexture = TextureReference(path: key)
      material.diffuse = SIMD3(1, 1, 1)
    }
    return material
  }

  /// The package file of the `UsdUVTexture` whose output `input` is connected to.
  private func textureFile(feeding input: String) -> String? {
    guard let source = connections[input]?.first else { return nil }
    let prim = String(source[..<(source.lastIndex(of: ".") ?? source.endIndex)])
    guard case .token("UsdUVTexture")? = values[prim + ".info:id"],
      case .token(let file)? = values[prim + ".inputs:file"]
    else { return nil }
    return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
  }

  /// The mesh with its texture coordinates, one vertex a triangle corner (so face-varying
  /// coordinates keep their seams), from its first `texCoord2f` primvar (`primvars:st`,
  /// Blender's `primvars:UVMap`), indexed or not, per point or per face corner; nil when it has
  /// none that fits.
  func cornerTexcoords(
    _ prim: String, points: [SIMD3<Double>], faceCounts: [Int64], indices: [Int64], triangles: [UInt32]
  ) -> GLTFPrimitiveAttributes? {
    let prefix = prim + ".primvars:"
    guard
      let name = values.keys.filter({ key in
        guard key.hasPrefix(prefix), !key.hasSuffix(":indices"), case .texcoords? = values[key] else {
          return false
        }
        return true
      }).sorted().first,
      case .texcoords(let raw)? = values[name]
    else { return nil }
    var uv = raw
    if case .ints(let order)? = values[name + ":indices"] {
      guard order.allSatisfy({ $0 >= 0 && $0 < raw.count }) else { return nil }
      uv = order.map { raw[Int($0)] }
    }
    let faceVarying = interpolations[name] == "faceVarying"
    guard uv.count == (faceVarying ? indices.count : points.count) else { return nil }
    // Each triangle corner's face corner: the fans' corners, face by face.
    var leftHanded = false
    if case .token(let o)? = values[prim + ".orientation"] { leftHanded = o == "leftHanded" }
    var corners: [Int] = []
    var start = 0
    for count in faceCounts {
      let n = Int(count)
      for k in stride(from: 1, to: n - 1, by: 1) {
        corners += leftHanded ? [start, start + k + 1, start + k] : [start, start + k, start + k + 1]
      }
      start += n
    }
    guard corners.count == triangles.count else { return nil }
    var attributes = GLTFPrimitiveAttributes(
      positions: triangles.map { points[Int($0)] }, triangles: (0..<UInt32(triangles.count)).map { $0 })
    // USD's st has its origin at the bottom left, as ARScene's; the glTF builder turns v, so
    // turn it first.
    attributes.texcoords = corners.indices.map { c in
      let value = faceVarying ? uv[corners[c]] : uv[Int(triangles[c])]
      return SIMD2(value.x, 1 - value.y)
    }
    return attributes
  }
}
