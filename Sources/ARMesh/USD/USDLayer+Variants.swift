extension USDLayer {
  /// One variant step of a path: `/Root/{shape=sphere}/Shape` is the prim `/Root`, set `shape`,
  /// variant `sphere`, and `/Shape` after it (a property's `.size` when the variant sets one of
  /// the prim's own).
  struct VariantStep {
    var owner: Substring, set: Substring, variant: Substring, rest: Substring

    /// The first variant step in `path`, or nil for a path outside any variant.
    init?(_ path: String) {
      guard let open = path.firstASCII("/{"),
        let close = path[open.upperBound...].firstIndex(of: "}"),
        let equals = path[open.upperBound..<close].firstIndex(of: "=")
      else { return nil }
      owner = path[..<open.lowerBound]
      set = path[open.upperBound..<equals]
      variant = path[path.index(after: equals)..<close]
      rest = path[path.index(after: close)...]
    }
  }

  /// The layer with each prim's variant sets at their selections (`overrides`, a referencing
  /// prim's, before the layer's own), as USD composes them: the opinions inside a selected variant (keyed `/Prim/{set=variant}/…`) become the prim's, weaker
  /// than its own (and an outer variant's weaker than nothing but the prim's); those of the
  /// variants not selected, and of sets without a selection, are left out.
  func resolvingVariants(overriding overrides: [String: [String: String]] = [:]) -> USDLayer {
    var selections = resolvedSelections()
    // A referencing prim's choices, stronger than the layer's own (and kept for what this
    // layer references in turn).
    for (prim, chosen) in overrides {
      selections[prim, default: [:]].merge(chosen) { _, override in override }
    }
    guard
      prims.contains(where: { $0.path.containsASCII("/{") })
        || values.keys.contains(where: { $0.containsASCII("/{") })
        || references.keys.contains(where: { $0.containsASCII("/{") })
        || payloads.keys.contains(where: { $0.containsASCII("/{") })
    else {
      var out = self
      out.variantSelections = selections
      return out
    }
    /// The path a variant's opinion lands on, nil when its variant is not selected.
    func resolved(_ path: String) -> String? {
      var path = path
      while let step = VariantStep(path) {
        guard selections[String(step.owner)]?[String(step.set)] == String(step.variant) else { return nil }
        path = String(step.owner + step.rest)
      }
      return path
    }
    var out = self
    out.prims = []
    var seen: Set<String> = []
    for prim in prims {
      guard let path = resolved(prim.path) else { continue }
      if seen.insert(path).inserted {
        out.prims.append((path, prim.type))
      } else if let k = out.prims.firstIndex(where: { $0.path == path }), out.prims[k].type.isEmpty {
        out.prims[k].type = prim.type
      }
    }
    out.values = Self.resolving(values, resolved)
    out.timeSamples = Self.resolving(timeSamples, resolved)
    out.connections = Self.resolving(connections, resolved)
    out.interpolations = Self.resolving(interpolations, resolved)
    out.elementSizes = Self.resolving(elementSizes, resolved)
    out.halfPrecision = Set(halfPrecision.compactMap(resolved))
    out.nonDoubleScalars = Self.resolving(nonDoubleScalars, resolved)
    // A variant's sampled-only attribute stays so unless the prim has its own value.
    out.sampledOnly = sampledOnly.filter { !$0.containsASCII("/{") }
    for key in sampledOnly where key.containsASCII("/{") {
      if let k = resolved(key), values[k] == nil { out.sampledOnly.insert(k) }
    }
    out.references = [:]
    out.payloads = [:]
    for (path, list) in payloads.sorted(by: { $0.key.count < $1.key.count }) {
      guard let p = resolved(path) else { continue }
      out.payloads[p, default: []] += list
    }
    for (path, list) in references.sorted(by: { $0.key.count < $1.key.count }) {
      guard let p = resolved(path) else { continue }
      out.references[p, default: []] += list
    }
    out.abstractPrims = Set(abstractPrims.compactMap(resolved))
    out.definedPrims = Set(definedPrims.compactMap(resolved))
    out.overriddenPrims = Set(overriddenPrims.compactMap(resolved))
    out.inactivePrims = Set(inactivePrims.compactMap(resolved))
    out.activePrims = Set(activePrims.compactMap(resolved))
    out.instanceable = Self.resolving(instanceable, resolved)
    out.kinds = Self.resolving(kinds, resolved)
    // Applied API schemas compose as list ops: the prim's own, then its selected variants'.
    (out.apiSchemas, out.deletedAPISchemas) = (
      apiSchemas.filter { !$0.key.containsASCII("/{") },
      deletedAPISchemas.filter { !$0.key.containsASCII("/{") }
    )
    out.mergeAPISchemas(
      added: apiSchemas.filter { $0.key.containsASCII("/{") },
      deleted: deletedAPISchemas.filter { $0.key.containsASCII("/{") }, moved: resolved)
    out.variantSelections = selections
    return out
  }

  /// `table` with its variant keys resolved: the prim's own opinion first, then those of fewer
  /// variant steps (outer variants are stronger than the variants nested in them).
  private static func resolving<Value>(_ table: [String: Value], _ resolved: (String) -> String?)
    -> [String: Value]
  {
    var out = table.filter { !$0.key.containsASCII("/{") }
    let inVariants = table.keys.filter { $0.containsASCII("/{") }.sorted {
      ($0.count { $0 == "{" }, $0) < ($1.count { $0 == "{" }, $1)
    }
    for key in inVariants {
      guard let k = resolved(key), out[k] == nil else { continue }
      out[k] = table[key]
    }
    return out
  }

  /// Each prim's selections, those authored inside a selected variant (a nested variant set's)
  /// moved onto their prim; of an unselected variant's, none.
  private func resolvedSelections() -> [String: [String: String]] {
    var selections = variantSelections.filter { !$0.key.containsASCII("/{") }
    var pending = variantSelections.filter { $0.key.containsASCII("/{") }
    // Each round settles one more level of nesting.
    while !pending.isEmpty {
      var settled = false
      for (path, map) in pending {
        var p = path
        var selected = true
        while let step = VariantStep(p) {
          guard let choice = selections[String(step.owner)]?[String(step.set)] else {
            selected = false
            break
          }
          guard choice == String(step.variant) else {
            p = ""
            break
          }
          p = String(step.owner + step.rest)
        }
        guard selected else { continue }
        pending[path] = nil
        settled = true
        if !p.isEmpty { selections[p, default: [:]].merge(map) { own, _ in own } }
      }
      if !settled { break }
    }
    return selections
  }
}
