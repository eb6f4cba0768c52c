extension USDStageReader {
  /// Prim `prim`'s `primvars:displayColor` where it is one colour (its interpolation
  /// `constant`, USD's fallback for a primvar, or a single value; through its `:indices`), else
  /// the nearest ancestor's constant one (constant primvars are inherited down the namespace, as
  /// `UsdGeomPrimvarsAPI` finds them): the colour Storm draws a surface bound to no material in;
  /// nil without one, or one that is not finite.
  func constantDisplayColor(_ prim: String) -> SIMD3<Float>? {
    for (k, holder) in ([prim] + Self.ancestors(of: prim)).enumerated() {
      let key = holder + ".primvars:displayColor"
      guard case .vectors(var raw)? = value(key), !raw.isEmpty else { continue }
      let constant = (interpolations[key] ?? "constant") == "constant"
      // The prim's own varying colours are drawn at its vertices; an ancestor's are not inherited.
      guard constant || (k == 0 && raw.count == 1) else { return nil }
      if case .ints(let order)? = value(key + ":indices"), let first = order.first {
        guard first >= 0, first < raw.count else { return nil }
        raw = [raw[Int(first)]]
      }
      let c = raw[0]
      guard c.x.isFinite, c.y.isFinite, c.z.isFinite else { return nil }
      return SIMD3(Float(c.x), Float(c.y), Float(c.z))
    }
    return nil
  }

  /// Whether mesh `prim`'s `primvars:displayColor` varies over it (per point, face or face
  /// corner) and is drawn: the mesh is bound to no material (faces a subset binds one to are
  /// drawn in it, without the colours: ``SurfaceSink``).
  func drawsVaryingDisplayColor(_ prim: String) -> Bool {
    let key = prim + ".primvars:displayColor"
    guard case .vectors(let raw)? = value(key), raw.count > 1 else { return false }
    return (interpolations[key] ?? "constant") != "constant" && boundMaterial(of: prim) == nil
  }

  /// The material a surface bound to no material is drawn in where its display colour is
  /// `colour`: that colour, as Storm's fallback surface draws it (white, with the colours at
  /// the vertices, for a colour that varies).
  static func displayColorMaterial(_ colour: SIMD3<Float>) -> Material {
    var material = Material(name: "displayColor (\(colour.x), \(colour.y), \(colour.z))")
    material.diffuse = colour
    return material
  }

  /// The warning for prim `prim`'s `primvars:displayOpacity` where a value is below 1: Storm
  /// draws such a surface translucent, ARScene opaque in its display colour. Nil otherwise.
  func displayOpacityWarning(_ prim: String) -> String? {
    guard case .doubles(let opacities)? = value(prim + ".primvars:displayOpacity"),
      opacities.contains(where: { $0 < 1 })
    else { return nil }
    return
      "\(layer.path): \(prim)'s primvars:displayOpacity (below 1) is not drawn: drawn opaque in its display colour"
  }

  /// Whether gprim `prim` is `doubleSided` (USD's fallback: false, one-sided).
  func isDoubleSided(_ prim: String) -> Bool {
    if case .double(let x)? = value(prim + ".doubleSided") { return x != 0 }
    return false
  }
}
