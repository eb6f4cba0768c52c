extension USDStageReader {
  /// Prim `prim`'s `primvars:displayColor` where it is one colour (its interpolation
  /// `constant`, USD's fallback for a primvar, or a single value; through its `:indices`), else
  /// the nearest ancestor's constant one (constant primvars are inherited down the namespace, as
  /// `UsdGeomPrimvarsAPI` finds them): the colour Storm draws a surface bound to no material in;
  /// nil without one, or one that is not finite.
  func constantDisplayColor(_ prim: String) -> SIMD3<Float>? {
    guard
      let c = constantPrimvar(
        prim, "displayColor", { if case .vectors(let v) = $0 { v.doubles } else { nil } }),
      c.x.isFinite, c.y.isFinite, c.z.isFinite
    else { return nil }
    return SIMD3(Float(c.x), Float(c.y), Float(c.z))
  }

  /// Prim `prim`'s `primvars:displayOpacity` where it is one value, found as
  /// ``constantDisplayColor(_:)`` finds the colour, clamped to 0…1: the opacity Storm draws a
  /// surface bound to no material with (translucent below 1); nil without one, or one that is
  /// not finite.
  func constantDisplayOpacity(_ prim: String) -> Float? {
    guard
      let o = constantPrimvar(prim, "displayOpacity", { if case .doubles(let v) = $0 { v } else { nil } }),
      o.isFinite
    else { return nil }
    return Float(min(max(o, 0), 1))
  }

  /// The one value of primvar `name` (its array read by `elements`) over the whole of prim
  /// `prim`: its own where constant (or a single value), through its `:indices`, else the
  /// nearest ancestor's constant one; nil where the prim's own varies or none is found.
  private func constantPrimvar<T>(_ prim: String, _ name: String, _ elements: (USDValue) -> [T]?) -> T? {
    for (k, holder) in ([prim] + Self.ancestors(of: prim)).enumerated() {
      let key = holder + ".primvars:" + name
      guard let stored = value(key), var raw = elements(stored), !raw.isEmpty else { continue }
      let constant = (interpolations[key] ?? "constant") == "constant"
      // The prim's own varying values are drawn at its vertices; an ancestor's are not inherited.
      guard constant || (k == 0 && raw.count == 1) else { return nil }
      if case .ints(let order)? = value(key + ":indices"), let first = order.first {
        guard first >= 0, first < raw.count else { return nil }
        raw = [raw[Int(first)]]
      }
      return raw[0]
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
  /// `colour` and its display opacity `opacity`: that colour, as Storm's fallback surface draws
  /// it (white, with the colours at the vertices, for a colour that varies), blended below an
  /// opacity of 1 as Storm draws a surface with a display opacity, translucent.
  static func displayColorMaterial(_ colour: SIMD3<Float>, opacity: Float = 1) -> Material {
    let translucent = opacity < 1 ? ", opacity \(opacity)" : ""
    var material = Material(name: "displayColor (\(colour.x), \(colour.y), \(colour.z))" + translucent)
    material.diffuse = colour
    if opacity < 1 { (material.opacity, material.alphaMode) = (opacity, .blend) }
    return material
  }

  /// The warning for prim `prim`'s `primvars:displayOpacity` where it varies over the prim
  /// with a value below 1: Storm draws such a surface translucent, ARScene opaque in its
  /// display colour. Nil otherwise (one value is drawn: ``constantDisplayOpacity(_:)``, which
  /// the caller has found: `constant`).
  func displayOpacityWarning(_ prim: String, constant: Float?) -> String? {
    guard constant == nil,
      case .doubles(let opacities)? = value(prim + ".primvars:displayOpacity"),
      opacities.contains(where: { $0 < 1 })
    else { return nil }
    return
      "\(layer.path): \(prim)'s primvars:displayOpacity varies (below 1) and is not drawn: drawn opaque in its "
      + "display colour"
  }

  /// Whether gprim `prim` is `doubleSided` (USD's fallback: false, one-sided).
  func isDoubleSided(_ prim: String) -> Bool {
    if case .double(let x)? = value(prim + ".doubleSided") { return x != 0 }
    return false
  }
}
