extension USDLayer {
  /// The layer without its opinions on the descendants of its instances (`instanceable =
  /// true`), with a warning naming each instance that had some: an instance's descendants come
  /// from its prototype alone (its references, inherits and variants), and usd-core ignores
  /// what the instancing layers say of them. The instances' own opinions (their transforms,
  /// their arcs) stay.
  func withoutOpinionsUnderInstances() -> USDLayer {
    let instances = instanceable.filter(\.value).map(\.key).sorted()
    guard !instances.isEmpty else { return self }
    let prefixes = instances.map { $0 + "/" }
    func isInside(_ path: String) -> Bool { prefixes.contains { path.hasPrefix($0) } }
    func kept<Value>(_ table: [String: Value]) -> [String: Value] { table.filter { !isInside($0.key) } }
    var out = self
    out.prims = prims.filter { !isInside($0.path) }
    out.values = kept(values)
    out.timeSamples = kept(timeSamples)
    out.connections = kept(connections)
    out.interpolations = kept(interpolations)
    out.elementSizes = kept(elementSizes)
    out.nonDoubleScalars = kept(nonDoubleScalars)
    out.references = kept(references)
    out.payloads = kept(payloads)
    out.deletedReferences = kept(deletedReferences)
    out.deletedPayloads = kept(deletedPayloads)
    out.variantSelections = kept(variantSelections)
    out.instanceable = kept(instanceable)
    out.kinds = kept(kinds)
    out.apiSchemas = kept(apiSchemas)
    out.deletedAPISchemas = kept(deletedAPISchemas)
    out.halfPrecision = halfPrecision.filter { !isInside($0) }
    out.sampledOnly = sampledOnly.filter { !isInside($0) }
    out.abstractPrims = abstractPrims.filter { !isInside($0) }
    out.definedPrims = definedPrims.filter { !isInside($0) }
    out.overriddenPrims = overriddenPrims.filter { !isInside($0) }
    out.inactivePrims = inactivePrims.filter { !isInside($0) }
    out.activePrims = activePrims.filter { !isInside($0) }
    for instance in instances {
      let inside = prims.filter { $0.path.hasPrefix(instance + "/") }.map(\.path)
      guard !inside.isEmpty else { continue }
      out.notes.append(
        "\(path): \(instance) is instanceable: what this layer says of the \(inside.count) prims under it "
          + "(\(inside.prefix(3).joined(separator: ", "))\(inside.count > 3 ? ", …" : "")) is left out, as usd-core "
          + "leaves it out (an instance's descendants come from its prototype)")
    }
    return out
  }
}
