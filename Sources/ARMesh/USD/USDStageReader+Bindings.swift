extension USDStageReader {
  /// The material bound to the prim at `path` as UsdShade's `ComputeBoundMaterial` resolves it
  /// for preview rendering: the nearest binding on the prim or its ancestors (one on an `Xform`
  /// reaches every surface under it), unless an ancestor's binding is `strongerThanDescendants`,
  /// in which case the highest such wins. At each prim a collection-based binding whose
  /// collection holds the prim (``USDCollectionMembers``) comes after its direct binding and beats
  /// it. Bindings of the preview purpose (`material:binding:preview`,
  /// `material:binding:collection:preview:…`) are resolved first, anywhere up the chain; only
  /// without one do all-purpose bindings count. A GeomSubset's own binding is read by
  /// ``facesByMaterial(_:_:subsets:slot:)``.
  func boundMaterial(of path: String) -> String? {
    boundMaterial(of: path, purpose: "preview") ?? boundMaterial(of: path, purpose: nil)
  }

  /// The material bound for `purpose` (nil for all purposes) to the prim at `path` or its
  /// ancestors, by UsdShade's strength rules.
  private func boundMaterial(of path: String, purpose: String?) -> String? {
    var found: (material: String, on: Substring)?
    var prim = Substring(path)
    let suffix = ".material:binding" + (purpose.map { ":" + $0 } ?? "")
    while !prim.isEmpty {
      let direct = String(prim) + suffix
      if case .paths(let targets)? = values[direct], let material = targets.first,
        found == nil || isStronger(direct)
      {
        found = (material, prim)
      }
      for binding in collectionBindings(on: prim, purpose: purpose) {
        guard collections[binding.collection]?.contains(path) == true else { continue }
        if found == nil || found?.on == prim || isStronger(binding.relationship) {
          found = (binding.material, prim)
        }
        // The first collection binding holding the prim is the one that counts here.
        break
      }
      guard let slash = prim.lastASCII("/"), slash != prim.startIndex else { break }
      prim = prim[..<slash]
    }
    return found?.material
  }

  /// Whether the binding relationship `relationship` is `strongerThanDescendants`.
  private func isStronger(_ relationship: String) -> Bool {
    if case .token("strongerThanDescendants")? = values[USDLayer.bindingStrength(of: relationship)] {
      return true
    }
    return false
  }

  /// The collection-based bindings of `purpose` (nil for all purposes) on prim `prim`, in name
  /// order: each relationship with its collection (`/World.collection:red`) and material. One
  /// that does not target exactly a collection and a prim binds nothing, as in UsdShade.
  private func collectionBindings(on prim: Substring, purpose: String?)
    -> [(relationship: String, collection: String, material: String)]
  {
    // Most prims have none: no key made for them.
    let owner = String(prim)
    guard let keys = collectionBindings[owner] else { return [] }
    let prefix = owner + ".material:binding:collection:" + (purpose.map { $0 + ":" } ?? "")
    return keys.compactMap { key in
      guard key.hasPrefix(prefix), !key.dropFirst(prefix.count).contains(":"),
        case .paths(let targets)? = values[key], targets.count == 2
      else { return nil }
      let isCollection = targets.map { $0.contains(".") }
      guard isCollection[0] != isCollection[1] else { return nil }
      return isCollection[0] ? (key, targets[0], targets[1]) : (key, targets[1], targets[0])
    }
  }

  /// Warnings for collections ARScene cannot evaluate (a `membershipExpression`, a collection
  /// including itself, one nested too deep), naming them (none without).
  func collectionWarnings() -> [String] {
    let unread = collections.compactMap { path, members in members.unread.map { "\(path) (\($0))" } }
    guard !unread.isEmpty else { return [] }
    return [
      "\(layer.path): collections that bind materials are not read whole, so a surface they hold may draw "
        + "another binding: \(unread.sorted().joined(separator: ", "))"
    ]
  }
}
