import ARFiles
import ARMath
import RealModule

extension USDStageReader {
  /// The `UsdPreviewSurface` shader under the material at `path` as a material: its diffuse
  /// and emissive colours (constant, or a `UsdUVTexture`'s image from the package, whose bytes
  /// go into `images`), normal and occlusion maps, metallic, roughness and opacity; nil when
  /// there is none.
  func previewSurface(of path: String, images: inout [String: [UInt8]], warnings: inout [String]) -> Material?
  {
    guard let shader = previewSurfaceShader(of: path) else { return nil }
    var material = Material(name: String(path.split(separator: "/").last ?? "material"))
    func colour(_ input: String) -> SIMD3<Float>? {
      guard case .vector(let c)? = values[shader.path + ".inputs:" + input] else { return nil }
      return SIMD3(Float(c.x), Float(c.y), Float(c.z))
    }
    material.diffuse = colour("diffuseColor") ?? SIMD3(0.18, 0.18, 0.18)
    material.emissive = colour("emissiveColor") ?? .zero
    func number(_ input: String) -> Double? {
      guard case .double(let x)? = values[shader.path + ".inputs:" + input], x.isFinite else { return nil }
      return x
    }
    if let opacity = number("opacity") { material.opacity = Float(Swift.min(Swift.max(opacity, 0), 1)) }
    // UsdPreviewSurface's metallic workflow is glTF's model (fallbacks: metallic 0, roughness 0.5).
    material.metallicRoughness = Material.MetallicRoughness(
      metallic: Float(Swift.min(Swift.max(number("metallic") ?? 0, 0), 1)),
      roughness: Float(Swift.min(Swift.max(number("roughness") ?? 0.5, 0), 1)))
    if let threshold = number("opacityThreshold"), threshold > 0 {
      material.alphaMode = .mask(cutoff: Float(threshold))
      material.opacity = 1
    }
    // Textures as glTF's converted: roughness in green and metallic in blue of one texture,
    // opacity in the diffuse texture's alpha.
    var applied: Set<String> = []
    if let texture = metallicRoughnessTexture(of: shader.path, images: &images, warnings: &warnings) {
      material.metallicRoughnessTexture = texture.reference
      material.metallicRoughness = Material.MetallicRoughness(
        metallic: texture.factors.x, roughness: texture.factors.y)
      applied = texture.inputs
    }
    if let diffuse = self.shader(feeding: shader.path + ".inputs:diffuseColor", id: "UsdUVTexture"),
      connections[shader.path + ".inputs:opacity"]?.first == diffuse + ".outputs:a"
    {
      let threshold = number("opacityThreshold") ?? 0
      material.alphaMode = threshold > 0 ? .mask(cutoff: Float(threshold)) : .blend
      material.opacity = 1
      applied.insert("opacity")
    }
    // Textures on other inputs are not applied: said, not dropped without a word.
    let unapplied = Self.untexturedInputs.filter {
      connections[shader.path + ".inputs:" + $0] != nil && !applied.contains($0)
    }
    if !unapplied.isEmpty {
      warnings.append(
        "\(layer.path): material \(path): its \(unapplied.joined(separator: ", ")) texture\(unapplied.count == 1 ? " is" : "s are") "
          + "not applied (ARScene draws roughness and metallic textures from one texture's green and blue, and opacity from the diffuse texture's alpha): drawn with constants"
      )
    }
    // A connected input takes its texture's value in place of its constant.
    if let texture = packageTexture(
      feeding: shader.path + ".inputs:diffuseColor", images: &images, warnings: &warnings)
    {
      material.diffuseTexture = texture
      material.diffuse = textureScale(feeding: shader.path + ".inputs:diffuseColor", warnings: &warnings)
    }
    if let texture = packageTexture(
      feeding: shader.path + ".inputs:emissiveColor", images: &images, warnings: &warnings)
    {
      material.emissiveTexture = texture
      material.emissive = textureScale(feeding: shader.path + ".inputs:emissiveColor", warnings: &warnings)
    }
    // Normal maps as exporters write them (scale 2, bias −1: the renderer's decoding); the
    // occlusion map's red channel.
    material.normalTexture = packageTexture(
      feeding: shader.path + ".inputs:normal", images: &images, warnings: &warnings)
    material.occlusionTexture = packageTexture(
      feeding: shader.path + ".inputs:occlusion", images: &images, warnings: &warnings)
    return material
  }

  /// The texture-coordinate primvar (its name after `primvars:`) the first `UsdPrimvarReader_float2`
  /// of the material at `material` reads: its `varname`, or the material input that
  /// feeds it (`inputs:frame:stPrimvarName`, as Apple's usdzconvert writes it).
  func textureCoordinateSet(readBy material: String?) -> String? {
    guard let material else { return nil }
    for prim in prims where prim.type == "Shader" && prim.path.hasPrefix(material + "/") {
      guard case .token("UsdPrimvarReader_float2")? = values[prim.path + ".info:id"] else { continue }
      var input = prim.path + ".inputs:varname"
      if let source = connections[input]?.first { input = source }
      if case .token(let name)? = values[input], !name.isEmpty { return name }
    }
    return nil
  }

  /// The `UsdPreviewSurface` shader under the material at `material`, if it has one.
  func previewSurfaceShader(of material: String) -> (path: String, type: String)? {
    prims.first { prim in
      guard prim.type == "Shader", prim.path.hasPrefix(material + "/"),
        case .token("UsdPreviewSurface")? = values[prim.path + ".info:id"]
      else { return false }
      return true
    }
  }

  /// The texture of the UsdPreviewSurface `shader`'s roughness and metallic inputs where they
  /// read a texture's green and blue channels (glTF's metallic-roughness texture, as converters
  /// write it; either input may be constant), with the factors (metallic, roughness) it is
  /// drawn with and the inputs it serves; nil for other textures, which are warned about.
  private func metallicRoughnessTexture(
    of shader: String, images: inout [String: [UInt8]], warnings: inout [String]
  ) -> (reference: TextureReference, factors: SIMD2<Float>, inputs: Set<String>)? {
    var texture: String?, inputs: Set<String> = []
    for (input, channel) in [("roughness", "g"), ("metallic", "b")] {
      guard let source = connections[shader + ".inputs:" + input]?.first else { continue }
      let prim = String(source[..<(source.lastIndex(of: ".") ?? source.endIndex)])
      guard source == prim + ".outputs:" + channel, texture == nil || texture == prim else { return nil }
      (texture, inputs) = (prim, inputs.union([input]))
    }
    guard let texture, let input = inputs.first.map({ shader + ".inputs:" + $0 }) else { return nil }
    // glTF multiplies both channels by factors: an input left constant must be 0 to be drawn
    // as USD draws it (a metallic of 0 over any blue); otherwise the texture is not applied.
    for (name, fallback) in [("metallic", 0.0), ("roughness", 0.5)] where !inputs.contains(name) {
      var constant = fallback
      if case .double(let x)? = values[shader + ".inputs:" + name] { constant = x }
      guard constant == 0 else { return nil }
    }
    guard let reference = packageTexture(feeding: input, images: &images, warnings: &warnings) else {
      return nil
    }
    // The texture's scale multiplies its channels (converters write glTF's factors there).
    var scale: [Double] = [1, 1, 1, 1]
    if case .doubles(let found)? = values[texture + ".inputs:scale"], found.count == 4,
      found.allSatisfy(\.isFinite)
    {
      scale = found
    }
    let factors = SIMD2(
      inputs.contains("metallic") ? Float(scale[2]) : 0, inputs.contains("roughness") ? Float(scale[1]) : 0)
    return (reference, factors, inputs)
  }

  /// The UsdPreviewSurface inputs whose textures ARScene does not apply.
  static let untexturedInputs = [
    "metallic", "roughness", "opacity", "clearcoat", "clearcoatRoughness", "specularColor", "displacement",
    "ior",
  ]

  /// The texture of the image whose `UsdUVTexture` feeds `input` (a file of the package, or
  /// beside a bare layer file), its bytes put in `images` under the path the reference names;
  /// nil, with a warning naming the texture, where the file is not there or cannot be read.
  private func packageTexture(
    feeding input: String, images: inout [String: [UInt8]], warnings: inout [String]
  )
    -> TextureReference?
  {
    guard let file = textureFile(feeding: input) else { return nil }
    if let warning = textureTransformWarning(feeding: input), !warnings.contains(warning) {
      warnings.append(warning)
    }
    let key = layer.path + "#" + file
    let reference = wrapped(TextureReference(path: key), feeding: input, warnings: &warnings)
    if images[key] != nil { return reference }
    if let bytes = packageFiles[file] {
      images[key] = Array(bytes)
      return reference
    }
    let why: String
    switch folderFile?(file) {
    case .success(let bytes)?:
      images[key] = bytes
      return reference
    case .failure(let error)?: why = error.reason
    case nil: why = "the package holds no such file"
    }
    let place = String(input[..<(input.lastIndex(of: ".") ?? input.endIndex)])
    // Named from the root layer's folder, as a user would write it (anchored paths are whole).
    let folder = PathNames.folder(of: layer.path) + "/"
    let shown = file.hasPrefix(folder) ? String(file.dropFirst(folder.count)) : file
    warnings.append(
      "\(layer.path): texture @\(shown)@ of \(place) not read (\(why)): \(input.split(separator: ":").last ?? "") "
        + "drawn without it")
    return nil
  }

  /// The package file of the `UsdUVTexture` whose output `input` is connected to.
  private func textureFile(feeding input: String) -> String? {
    guard let texture = shader(feeding: input, id: "UsdUVTexture"),
      case .token(let file)? = values[texture + ".inputs:file"]
    else { return nil }
    return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
  }

  /// The factor a colour texture feeding `input` is drawn with: its `UsdUVTexture`'s `scale`
  /// (red, green, blue; as converters write glTF's `baseColorFactor` beside a texture), white
  /// without one. A `bias` other than zero is named in a warning: it is not applied.
  private func textureScale(feeding input: String, warnings: inout [String]) -> SIMD3<Float> {
    guard let texture = shader(feeding: input, id: "UsdUVTexture") else { return SIMD3(1, 1, 1) }
    if case .doubles(let bias)? = values[texture + ".inputs:bias"], bias.count == 4,
      bias.prefix(3) != [0, 0, 0]
    {
      warnings.append(
        "\(layer.path): texture \(texture)'s bias \(bias) is not applied (only its scale is)")
    }
    guard case .doubles(let scale)? = values[texture + ".inputs:scale"], scale.count == 4,
      scale.prefix(3).allSatisfy(\.isFinite)
    else { return SIMD3(1, 1, 1) }
    return SIMD3(Float(scale[0]), Float(scale[1]), Float(scale[2]))
  }

  /// `reference` with the wrap modes of the `UsdUVTexture` feeding `input` (`wrapS`, `wrapT`):
  /// `repeat` (and `useMetadata`, the fallback, which ARScene reads as repeat), `mirror`, and
  /// `clamp` on both axes. `black`, or `clamp` on one axis only, is drawn as the nearest it can
  /// be (clamped; repeated) with a warning.
  private func wrapped(_ reference: TextureReference, feeding input: String, warnings: inout [String])
    -> TextureReference
  {
    guard let texture = shader(feeding: input, id: "UsdUVTexture") else { return reference }
    func mode(_ axis: String) -> String {
      if case .token(let m)? = values[texture + ".inputs:" + axis] { return m }
      return "useMetadata"
    }
    let (s, t) = (mode("wrapS"), mode("wrapT"))
    var out = reference
    out.mirrored = (s == "mirror", t == "mirror")
    let clamped = ["clamp", "black"]
    out.clamp = clamped.contains(s) && clamped.contains(t)
    if s == "black" || t == "black" || clamped.contains(s) != clamped.contains(t) {
      let warning =
        "\(layer.path): texture \(texture)'s wraps (\(s), \(t)) are drawn as "
        + "\(out.clamp ? "clamp" : "repeat"), the nearest ARScene draws"
      if !warnings.contains(warning) { warnings.append(warning) }
    }
    return out
  }

  /// The shader of `id` (`info:id`) whose output `input` is connected to, if it is one.
  private func shader(feeding input: String, id: String) -> String? {
    guard let source = connections[input]?.first else { return nil }
    let prim = String(source[..<(source.lastIndex(of: ".") ?? source.endIndex)])
    guard case .token(id)? = values[prim + ".info:id"] else { return nil }
    return prim
  }

  /// The warning for a texture feeding `input` whose coordinates pass through a
  /// `UsdTransform2d` other than the one its material's diffuse texture's pass through (which
  /// is applied to the coordinates every texture of the material reads): not applied.
  func textureTransformWarning(feeding input: String) -> String? {
    guard let texture = shader(feeding: input, id: "UsdUVTexture"),
      let transform = shader(feeding: texture + ".inputs:st", id: "UsdTransform2d")
    else { return nil }
    let shaderPath = String(input[..<(input.lastIndex(of: ".") ?? input.endIndex)])
    if let diffuse = shader(feeding: shaderPath + ".inputs:diffuseColor", id: "UsdUVTexture"),
      shader(feeding: diffuse + ".inputs:st", id: "UsdTransform2d") == transform
    {
      return nil
    }
    return
      "\(layer.path): the texture coordinates of \(texture) pass through \(transform) (a UsdTransform2d), "
      + "which is not applied: drawn with the coordinates the diffuse texture reads"
  }

  /// The texture transform of the diffuse texture of the UsdPreviewSurface under `material`,
  /// where its coordinates pass through a `UsdTransform2d`, as glTF's `KHR_texture_transform`
  /// takes it. USD turns texture coordinates (t up) by `rotation` degrees counter-clockwise
  /// after `scale`, then adds `translation`; glTF's (v = 1 − t, down) rotation is the same angle
  /// and its offset `D(translation − e) − R S e`, e = (0, 1), D flipping v: the conjugate of
  /// USD's transform by the flip (how Reality Converter writes glTF's transforms, inverted).
  func diffuseTextureTransform(ofMaterial material: String) -> GLTFDocument.TextureTransform? {
    guard let surface = previewSurfaceShader(of: material),
      let texture = shader(feeding: surface.path + ".inputs:diffuseColor", id: "UsdUVTexture"),
      let transform = shader(feeding: texture + ".inputs:st", id: "UsdTransform2d")
    else { return nil }
    func pair(_ name: String, _ fallback: SIMD2<Double>) -> SIMD2<Double> {
      guard case .texcoords(let v)? = values[transform + ".inputs:" + name], v.count == 1,
        v[0].x.isFinite, v[0].y.isFinite
      else { return fallback }
      return v[0]
    }
    var degrees = 0.0
    if case .double(let r)? = values[transform + ".inputs:rotation"], r.isFinite { degrees = r }
    let (scale, translation) = (pair("scale", SIMD2(1, 1)), pair("translation", .zero))
    let r = degrees * .pi / 180
    let (c, s) = (Double.cos(r), Double.sin(r))
    // glTF's rotation of S·e = (0, scale.y): (c·0 + s·sy, −s·0 + c·sy).
    let turned = SIMD2(s * scale.y, c * scale.y)
    let offset = SIMD2(translation.x, 1 - translation.y) - turned
    return GLTFDocument.TextureTransform(
      offset: [offset.x, offset.y], rotation: r, scale: [scale.x, scale.y])
  }

  /// The mesh with its texture coordinates (its first `texCoord2f` primvar: `primvars:st`,
  /// Blender's `primvars:UVMap`) and its normals (`normals`, or `primvars:normals`), one vertex
  /// a triangle corner so that face-varying values keep their seams; nil when it has neither
  /// (flat normals follow). `corners` gives each triangle corner's face-vertex index and face;
  /// `normalTransforms`, each point's normal transform where a skin moved the points.
  func cornerAttributes(
    _ prim: String, points: [SIMD3<Double>], faceVertexCount: Int, faceCount: Int, triangles: [UInt32],
    corners: [(faceVertex: Int, face: Int)], normalTransforms: [Matrix3<Double>]? = nil
  ) -> GLTFPrimitiveAttributes? {
    let texcoords = (primvars[prim] ?? []).filter { key in
      guard !key.hasSuffix(":indices"), case .texcoords? = value(key) else { return false }
      return true
    }
    // Of several sets, the one the bound material's textures read (a primvar reader's
    // `varname`), else the first by name.
    let read = texcoords.count > 1 ? textureCoordinateSet(readBy: boundMaterial(of: prim)) : nil
    let uvName = texcoords.first { read != nil && $0 == prim + ".primvars:" + read! } ?? texcoords.first
    let normalName = [prim + ".primvars:normals", prim + ".normals"].first { key in
      if case .vectors? = value(key) { return true }
      return false
    }
    /// Each triangle corner's value of primvar `name` (`raw`), by its interpolation.
    func perCorner<T>(_ name: String, _ raw: [T], fallback: String) -> [T]? {
      var table = raw
      if case .ints(let order)? = value(name + ":indices") {
        guard order.allSatisfy({ $0 >= 0 && $0 < raw.count }) else { return nil }
        table = order.map { raw[Int($0)] }
      }
      switch interpolations[name] ?? fallback {
      case "faceVarying":
        guard table.count == faceVertexCount else { return nil }
        return corners.map { table[$0.faceVertex] }
      case "uniform":
        guard table.count == faceCount else { return nil }
        return corners.map { table[$0.face] }
      case "constant":
        guard let first = table.first else { return nil }
        return Array(repeating: first, count: corners.count)
      default:  // vertex, varying
        guard table.count == points.count else { return nil }
        return triangles.map { table[Int($0)] }
      }
    }
    var uv: [SIMD2<Double>]?, normals: [SIMD3<Double>]?
    if let uvName, case .texcoords(let raw)? = value(uvName) {
      uv = perCorner(uvName, raw, fallback: "vertex")
    }
    if let normalName, case .vectors(let raw)? = value(normalName) {
      normals = perCorner(normalName, raw, fallback: "vertex")?.map { n in
        n.x.isFinite && n.y.isFinite && n.z.isFinite ? n : .zero
      }
      // A skinned mesh's normals turn with their points' blended joints.
      if let normalTransforms, let given = normals {
        normals = zip(given, triangles).map { normalTransforms[Int($1)] * $0 }
      }
    }
    guard uv != nil || normals != nil, corners.count == triangles.count else { return nil }
    var attributes = GLTFPrimitiveAttributes(
      positions: triangles.map { points[Int($0)] }, triangles: (0..<UInt32(triangles.count)).map { $0 })
    // USD's st has its origin at the bottom left, as ARScene's; the glTF builder turns v, so
    // turn it first.
    attributes.texcoords = uv?.map { SIMD2($0.x, 1 - $0.y) }
    attributes.normals = normals
    return attributes
  }
}
