extension USDStageReader {
  /// The material bound to the prim at `path` as UsdShade resolves it for preview rendering:
  /// the nearest binding on the prim or its ancestors (one on an `Xform` reaches every surface
  /// under it), unless an ancestor's binding is `strongerThanDescendants`, in which case the
  /// highest such wins. Bindings of the preview purpose (`material:binding:preview`) are
  /// resolved first, anywhere up the chain; only without one do all-purpose bindings
  /// (`material:binding`) count. A GeomSubset's own binding is read by
  /// ``facesByMaterial(_:_:subsets:slot:)``.
  func boundMaterial(of path: String) -> String? {
    boundMaterial(of: path, relationship: "material:binding:preview")
      ?? boundMaterial(of: path, relationship: "material:binding")
  }

  /// The material bound by `relationship` to the prim at `path` or its ancestors, by
  /// UsdShade's strength rules.
  private func boundMaterial(of path: String, relationship: String) -> String? {
    var found: String?
    var prim = Substring(path)
    while !prim.isEmpty {
      let binding = prim + "." + relationship
      if case .paths(let targets)? = values[binding], let material = targets.first {
        // The nearest binding, unless one above is stronger than its descendants.
        if case .token("strongerThanDescendants")? = values[USDLayer.bindingStrength(of: binding)] {
          found = material
        } else if found == nil {
          found = material
        }
      }
      guard let slash = prim.lastIndex(of: "/"), slash != prim.startIndex else { break }
      prim = prim[..<slash]
    }
    return found
  }

  /// A warning naming the prims that bind materials through collections
  /// (`material:binding:collection:…`, UsdShade's collection-based bindings), which ARScene does
  /// not apply (none for a stage without them): usd-core's `ComputeBoundMaterial` may give a
  /// surface such a binding's material where ARScene draws its direct binding, or the default.
  func collectionBindingWarnings() -> [String] {
    let marker = ".material:binding:collection:"
    let binders = Set(
      values.keys.compactMap { key in key.range(of: marker).map { String(key[..<$0.lowerBound]) } })
    guard !binders.isEmpty else { return [] }
    return [
      "\(layer.path): collection-based material bindings (material:binding:collection:…) are not applied: the "
        + "surfaces they bind draw with their direct bindings, or the default grey: on \(Self.list(binders.sorted()))"
    ]
  }
}
