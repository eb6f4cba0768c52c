import ARFiles
import ARMath
import Foundation
import RealModule

extension USDStageReader {
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

  /// The texture of the UsdPreviewSurface `shader`'s roughness and metallic inputs where they
  /// read a texture's green and blue channels (glTF's metallic-roughness texture, as converters
  /// write it; either input may be constant), with the factors (metallic, roughness) it is
  /// drawn with and the inputs it serves; nil for other textures, which are warned about.
  func metallicRoughnessTexture(
    of shader: String, images: inout [String: [UInt8]], warnings: inout [String]
  ) -> (reference: TextureReference, factors: SIMD2<Float>, inputs: Set<String>)? {
    var texture: String?, inputs: Set<String> = []
    for (input, channel) in [("roughness", "g"), ("metallic", "b")] {
      guard let source = connections[shader + ".inputs:" + input]?.first else { continue }
      let prim = String(source[..<(source.lastASCII(".") ?? source.endIndex)])
      guard source == prim + ".outputs:" + channel, texture == nil || texture == prim else { return nil }
      (texture, inputs) = (prim, inputs.union([input]))
    }
    // The input named in its warnings: the first by name where both read it (a set's order
    // changes from run to run; the warnings must not).
    guard let texture, let input = inputs.min().map({ shader + ".inputs:" + $0 }) else { return nil }
    // glTF multiplies both channels by factors: an input left constant must be 0 to be drawn
    // as USD draws it (a metallic of 0 over any blue); otherwise the texture is not applied.
    for (name, fallback) in [("metallic", 0.0), ("roughness", 0.5)] where !inputs.contains(name) {
      var constant = fallback
      if case .double(let x)? = inputValue(shader, name) { constant = x }
      guard constant == 0 else { return nil }
    }
    guard let reference = materialTexture(feeding: input, images: &images, warnings: &warnings) else {
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

  /// The UsdPreviewSurface `shader`'s `metallic` or `roughness` (`input`) fed by one channel of
  /// a texture of its own (`outputs:r`, `g`, `b` or `a`; Reality Converter and Apple's gallery
  /// write each map as its own image, read from red): the texture, reading that channel, and
  /// the factor it is drawn with (the `UsdUVTexture`'s `scale` for that channel, 1 without one;
  /// a `bias` other than zero is named in a warning: it is not applied). Nil where the input is
  /// not connected so, or the image cannot be read (warned about).
  func channelTexture(
    _ input: String, of shader: String, images: inout [String: [UInt8]], warnings: inout [String]
  ) -> (reference: TextureReference, factor: Float)? {
    let feeding = shader + ".inputs:" + input
    guard let source = connections[feeding]?.first,
      let texture = self.shader(feeding: feeding, id: "UsdUVTexture"),
      let channel = ["r", "g", "b", "a"].firstIndex(where: { source == texture + ".outputs:" + $0 }),
      var reference = materialTexture(feeding: feeding, images: &images, warnings: &warnings)
    else { return nil }
    reference.channel = Character(["r", "g", "b", "a"][channel])
    if case .doubles(let bias)? = values[texture + ".inputs:bias"], bias.count == 4, bias[channel] != 0 {
      let warning = "\(layer.path): texture \(texture)'s bias \(bias) is not applied (only its scale is)"
      if !warnings.contains(warning) { warnings.append(warning) }
    }
    var factor: Float = 1
    if case .doubles(let scale)? = values[texture + ".inputs:scale"], scale.count == 4,
      scale[channel].isFinite
    {
      factor = Float(scale[channel])
    }
    return (reference, factor)
  }

  /// The UsdPreviewSurface inputs whose textures ARScene does not apply.
  static let untexturedInputs = [
    "metallic", "roughness", "opacity", "clearcoat", "clearcoatRoughness", "specularColor", "displacement",
    "ior",
  ]

  /// The texture of the image whose `UsdUVTexture` feeds `input` (a file of the package, or
  /// beside a bare layer file), its bytes put in `images` under the path the reference names;
  /// nil, with a warning naming the texture, where the file is not there or cannot be read.
  func materialTexture(
    feeding input: String, images: inout [String: [UInt8]], warnings: inout [String]
  )
    -> TextureReference?
  {
    guard let file = textureFile(feeding: input) else { return nil }
    for warning in [textureTransformWarning(feeding: input), colourSpaceWarning(feeding: input)] {
      if let warning, !warnings.contains(warning) { warnings.append(warning) }
    }
    guard let reference = packagedTexture(file, feeding: input, images: &images, warnings: &warnings) else {
      return nil
    }
    return wrapped(reference, feeding: input, warnings: &warnings)
  }

  /// The texture of image `file` (a file of the package, or beside a bare layer file) read for
  /// `input`, its bytes put in `images` under the path the reference names; nil, with a warning
  /// naming the file and `input`, where it is not there or cannot be read.
  func packagedTexture(
    _ file: String, feeding input: String, images: inout [String: [UInt8]], warnings: inout [String]
  ) -> TextureReference? {
    let key = layer.path + "#" + file
    let reference = TextureReference(path: key)
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
    let place = String(input[..<(input.lastASCII(".") ?? input.endIndex)])
    // Named from the root layer's folder (the working folder for a layer named without one), as
    // a user would write it; anchored paths are whole.
    let named = PathNames.folder(of: layer.path)
    let folder = named.isEmpty ? FileManager.default.currentDirectoryPath : named
    let shown = file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
    // Once an input: metallic and roughness may ask for one file as one texture, then each as
    // its own channel's.
    let warning =
      "\(layer.path): texture @\(shown)@ of \(place) not read (\(why)): \(input.split(separator: ":").last ?? "") "
      + "drawn without it"
    if !warnings.contains(warning) { warnings.append(warning) }
    return nil
  }

  /// The warning for a `UsdUVTexture` feeding `input` whose `sourceColorSpace` is not the one
  /// ARScene decodes that input's texels in (sRGB for the diffuse and emissive colours, linear
  /// for every other map, as `auto` resolves for 8-bit images): a colour map declared `raw`, or
  /// a data map declared `sRGB`, is drawn as ARScene decodes it, not as declared. Nil otherwise.
  func colourSpaceWarning(feeding input: String) -> String? {
    guard let texture = shader(feeding: input, id: "UsdUVTexture"),
      case .token(let space)? = values[texture + ".inputs:sourceColorSpace"]
    else { return nil }
    let name = String(input[(input.range(of: ".inputs:")?.upperBound ?? input.startIndex)...])
    let colour = ["diffuseColor", "emissiveColor"].contains(name)
    guard colour ? space == "raw" : space == "sRGB" else { return nil }
    return "\(layer.path): texture \(texture) feeding \(name) declares sourceColorSpace \"\(space)\", "
      + "which ARScene does not apply: its texels are decoded as \(colour ? "sRGB" : "linear") data"
  }

  /// The package file of the `UsdUVTexture` whose output `input` is connected to.
  func textureFile(feeding input: String) -> String? {
    guard let texture = shader(feeding: input, id: "UsdUVTexture"),
      case .token(let file)? = values[texture + ".inputs:file"]
    else { return nil }
    return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
  }

  /// The factor a colour texture feeding `input` is drawn with: its `UsdUVTexture`'s `scale`
  /// (red, green, blue; as converters write glTF's `baseColorFactor` beside a texture), white
  /// without one. A `bias` other than zero is named in a warning: it is not applied.
  func textureScale(feeding input: String, warnings: inout [String]) -> SIMD3<Float> {
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
  func wrapped(_ reference: TextureReference, feeding input: String, warnings: inout [String])
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
  func shader(feeding input: String, id: String) -> String? {
    guard let source = connections[input]?.first else { return nil }
    let prim = String(source[..<(source.lastASCII(".") ?? source.endIndex)])
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
    let shaderPath = String(input[..<(input.lastASCII(".") ?? input.endIndex)])
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
}
