extension USDStageReader {
  /// The image nodes whose colour a MaterialX surface's colour input may read directly:
  /// MaterialX's `image` and RealityKit's `RealityKitTexture2D` (Reality Composer Pro's "Image"
  /// and "Image 2D (RealityKit)"), each of three or four channels, read through `outputs:out`.
  static let materialXImageNodes: Set<String> = [
    "ND_image_color3", "ND_image_color4", "ND_tiledimage_color3", "ND_tiledimage_color4",
    "ND_RealityKitTexture2D_color3", "ND_RealityKitTexture2D_color4",
  ]
  /// The image nodes of one channel (their image's red): a metallic, roughness or occlusion map.
  static let materialXScalarImageNodes: Set<String> = [
    "ND_image_float", "ND_tiledimage_float", "ND_RealityKitTexture2D_float",
  ]
  /// The image nodes of three channels as a vector: a normal map, through `ND_normal_map_decode`
  /// (RealityKit's) or `ND_normalmap` (MaterialX's).
  static let materialXVectorImageNodes: Set<String> = [
    "ND_image_vector3", "ND_tiledimage_vector3", "ND_RealityKitTexture2D_vector3",
  ]

  /// The texture of the image node (one of `nodes`) MaterialX surface input `input` (a full
  /// attribute path) reads, directly or through node-graph outputs, or where `decodingNormals`,
  /// through an `ND_normal_map_decode` node: its file (a constant, or the material's or a node
  /// graph's input it is connected to) at the mesh's first texture coordinates, with its wrap
  /// modes. Both nodes take texture coordinates with t up, as USD's `st`: MaterialX's image by
  /// its specification, RealityKit's unless `no_flip_v` is set. Nil where `input` reads no such
  /// node; nil with a warning naming the node where the node reads other coordinates (a
  /// texture-coordinate node of another set, maths), sets `no_flip_v`, or its file cannot be
  /// read: the input is then drawn with its constant.
  func materialXImageTexture(
    feeding input: String, nodes: Set<String>, decodingNormals: Bool = false, images: inout [String: [UInt8]],
    warnings: inout [String]
  ) -> TextureReference? {
    var read = materialXNode(feeding: input)
    if decodingNormals {
      guard let decoder = read, case .token(let kind)? = values[decoder.path + ".info:id"],
        ["ND_normal_map_decode", "ND_normalmap", "ND_normalmap_float", "ND_normalmap_vector2"].contains(kind)
      else {
        return nil
      }
      read = materialXNode(feeding: decoder.path + ".inputs:in")
    }
    guard let node = read, case .token(let id)? = values[node.path + ".info:id"], nodes.contains(id),
      node.output == "out"
    else { return nil }
    func refuse(_ why: String) -> TextureReference? {
      warnings.append(
        "\(layer.path): image node \(node.path) (\(id)) \(why): \(input.split(separator: ":").last ?? "") drawn "
          + "with its constant")
      return nil
    }
    if materialXNumber(node.path + ".inputs:no_flip_v") ?? 0 != 0 {
      return refuse("reads its image with v down (no_flip_v), an orientation ARScene does not draw")
    }
    if let coordinates = materialXNode(feeding: node.path + ".inputs:texcoord") {
      guard case .token("ND_texcoord_vector2")? = values[coordinates.path + ".info:id"],
        materialXNumber(coordinates.path + ".inputs:index") ?? 0 == 0
      else {
        return refuse("reads texture coordinates from \(coordinates.path), which ARScene does not evaluate")
      }
    }
    guard let file = materialXAsset(node.path + ".inputs:file") else { return refuse("names no file") }
    guard
      var reference = packagedTexture(
        file.hasPrefix("./") ? String(file.dropFirst(2)) : file, feeding: input, images: &images,
        warnings: &warnings)
    else { return nil }
    if id.hasPrefix("ND_tiledimage") { Self.tile(&reference, node.path, values) }
    let modes = materialXWrapModes(node.path, realityKit: id.hasPrefix("ND_RealityKit"))
    reference.mirrored = (modes.u == "mirror", modes.v == "mirror")
    reference.clamp = modes.u == "clamp" && modes.v == "clamp"
    if modes.u != modes.v && (modes.u == "clamp" || modes.v == "clamp") {
      warnings.append(
        "\(layer.path): image node \(node.path)'s wraps (\(modes.u), \(modes.v)) are drawn as repeat, the "
          + "nearest ARScene draws")
    }
    return reference
  }

  /// Sets `reference`'s coordinate scale and offset to MaterialX's `tiledimage` node `node`'s
  /// `uvtiling` and `uvoffset` (coordinates times the tiling, less the offset, t up), as the
  /// renderer applies them to coordinates with t down (v = 1 − t).
  static func tile(_ reference: inout TextureReference, _ node: String, _ values: [String: USDValue]) {
    func pair(_ name: String, _ fallback: SIMD2<Double>) -> SIMD2<Double> {
      guard case .texcoords(let v)? = values[node + ".inputs:" + name], v.count == 1, v[0].x.isFinite,
        v[0].y.isFinite
      else { return fallback }
      return v[0]
    }
    let (tiling, offset) = (pair("uvtiling", SIMD2(1, 1)), pair("uvoffset", .zero))
    reference.scale = SIMD3(Float(tiling.x), Float(tiling.y), 1)
    // u' = u·Tu − Ou; with v = 1 − t: v' = 1 − (t·Tv − Ov) = v·Tv + 1 − Tv + Ov.
    reference.offset = SIMD3(Float(-offset.x), Float(1 - tiling.y + offset.y), 0)
  }

  /// The node (and the output of it) whose output attribute `input` is connected to, followed
  /// through node-graph outputs (a few hops); nil where it is connected to none.
  func materialXNode(feeding input: String) -> (path: String, output: String)? {
    var attribute = input
    for _ in 0..<4 {
      guard let source = connections[attribute]?.first, let dot = source.lastASCII(".") else {
        return nil
      }
      let prim = String(source[..<dot])
      guard primTypes[prim] == "NodeGraph", connections[source] != nil else {
        let output = source[source.index(after: dot)...]
        return (
          prim, output.hasPrefix("outputs:") ? String(output.dropFirst("outputs:".count)) : String(output)
        )
      }
      attribute = source
    }
    return nil
  }

  /// The asset path attribute `attribute` holds, or the interface input it is connected to
  /// (``interfaceResolved(_:)``).
  func materialXAsset(_ attribute: String) -> String? {
    guard case .token(let file)? = values[interfaceResolved(attribute).attribute], !file.isEmpty else {
      return nil
    }
    return file
  }

  /// A constant number attribute (a `bool` as 0 or 1, an `int`, a `float`), its own or its
  /// interface input's (``interfaceResolved(_:)``), nil where there is none.
  func materialXNumber(_ attribute: String) -> Double? {
    guard case .double(let x)? = values[interfaceResolved(attribute).attribute] else { return nil }
    return x
  }

  /// An image node's wrap modes along u and v as `repeat`, `mirror` or `clamp`: MaterialX's
  /// `uaddressmode`/`vaddressmode` (`periodic` its fallback, `constant` drawn as clamp) or
  /// RealityKit's `u_wrap_mode`/`v_wrap_mode` (`repeat` its fallback, `clamp_to_edge`,
  /// `mirrored_repeat`; a border colour drawn as clamp).
  func materialXWrapModes(_ node: String, realityKit: Bool) -> (u: String, v: String) {
    func mode(_ name: String) -> String {
      guard case .token(let m)? = values[node + ".inputs:" + name] else { return "repeat" }
      switch m {
      case "mirror", "mirrored_repeat": return "mirror"
      case "clamp", "clamp_to_edge", "constant", "clamp_to_border_color", "clamp_to_zero": return "clamp"
      default: return "repeat"
      }
    }
    return realityKit
      ? (mode("u_wrap_mode"), mode("v_wrap_mode")) : (mode("uaddressmode"), mode("vaddressmode"))
  }
}
