import Foundation

extension USDLayer {
  /// The layer with its sublayers (`subLayers`, strongest first) merged in, each with its own
  /// sublayers merged first: their prims and opinions where a stronger layer has none, as USD
  /// composes a layer stack, before variants are resolved (a variant's opinion is weaker than
  /// every local one of the stack, in whichever sublayer). A sublayer's references keep naming
  /// the files they named: their paths are rebased onto this layer's folder.
  ///
  /// - Parameters:
  ///   - load: As for ``composed(load:depth:selections:)``.
  ///   - depth: How many references and sublayers deep this layer is (a chain deeper than
  ///     eight, or a cycle, is an error).
  func stacked(load: (String, String) throws(USDError) -> USDLayer?, depth: Int) throws(USDError) -> USDLayer
  {
    guard !subLayers.isEmpty else { return self }
    guard depth <= 8 else {
      throw USDError(path: path, place: "subLayers", reason: "more than eight layers deep (a cycle?)")
    }
    var out = self
    out.subLayers = []
    out.subLayerOffsets = []
    for (k, file) in subLayers.enumerated() {
      guard let raw = try load(file, path) else {
        throw USDError(
          path: path, place: "subLayers",
          reason: "names \(file), which \(holder) does not hold")
      }
      out.mergeWeaker(
        try raw.stacked(load: load, depth: depth + 1).rebased(onto: path)
          .retimed(toRate: timeCodesPerSecond, by: k < subLayerOffsets.count ? subLayerOffsets[k] : .identity)
      )
    }
    return out
  }

  /// The layer as a layer at `rate` (time codes a second; nil for USD's 24) brings it in,
  /// through a sublayer or a reference with layer offset `offset`: each time sample's time code
  /// `t` becomes `offset.time(t × rate / own rate)`, as USD scales a layer whose rate differs
  /// (an animation made at 24 a second keeps its speed on a stage at 48); its arcs to other
  /// layers have that mapping applied after their own offsets (and keep this layer's rate,
  /// which scales them against the layers they bring when they are composed). Its internal
  /// references' offsets apply in the time of the whole layer stack, as usd-core applies them,
  /// so a sublayer's mapping leaves them as they are; with `internalArcs`, for the subtree an
  /// internal reference brings, they take it too.
  func retimed(
    toRate rate: Double?, by offset: USDLayerOffset = .identity, internalArcs: Bool = false
  ) -> USDLayer {
    let own = timeCodesPerSecond ?? 24
    let mapping = offset.after(USDLayerOffset(scale: (rate ?? 24) / own))
    var out = self
    func retimed(_ arcs: [String: [USDArc]]) -> [String: [USDArc]] {
      arcs.mapValues {
        $0.map {
          var arc = $0
          arc.rate = arc.rate ?? own
          if internalArcs || !arc.file.isEmpty { arc.timing = mapping.after(arc.timing) }
          return arc
        }
      }
    }
    out.references = retimed(references)
    out.payloads = retimed(payloads)
    if mapping.movesTime {
      out.timeSamples = timeSamples.mapValues { (times: $0.times.map(mapping.time), values: $0.values) }
    }
    return out
  }

  /// Merges `weaker`'s prims and opinions in where this layer has none: its root prims'
  /// subtrees, references (after this layer's own), variant selections and classes.
  private mutating func mergeWeaker(_ weaker: USDLayer) {
    for root in weaker.prims where root.path.lastASCII("/") == root.path.startIndex {
      graft(weaker, from: root.path, to: root.path)
    }
    // A stronger layer's deleted items are not taken from the weaker one; its own deletions
    // reach the layers weaker still.
    for (prim, list) in weaker.references.sorted(by: { $0.key < $1.key }) {
      let deleted = deletedReferences[prim] ?? []
      references[prim, default: []] += list.filter { arc in !deleted.contains { $0.isSame(as: arc) } }
    }
    for (prim, list) in weaker.payloads.sorted(by: { $0.key < $1.key }) {
      let deleted = deletedPayloads[prim] ?? []
      payloads[prim, default: []] += list.filter { arc in !deleted.contains { $0.isSame(as: arc) } }
    }
    deletedReferences.merge(weaker.deletedReferences, uniquingKeysWith: +)
    deletedPayloads.merge(weaker.deletedPayloads, uniquingKeysWith: +)
    for (prim, chosen) in weaker.variantSelections {
      variantSelections[prim, default: [:]].merge(chosen) { stronger, _ in stronger }
    }
    abstractPrims.formUnion(weaker.abstractPrims)
    addNotes(of: weaker)
  }

  /// The layer with the files its references name made relative to the folder of the layer at
  /// `stronger` rather than to its own (the same in a package, where names are the package's).
  private func rebased(onto stronger: String) -> USDLayer {
    guard !path.hasSuffix("]"), !stronger.hasSuffix("]") else { return self }
    func folder(_ file: String) -> [String] {
      URL(fileURLWithPath: file).standardizedFileURL.deletingLastPathComponent().pathComponents
    }
    let (mine, theirs) = (folder(path), folder(stronger))
    guard mine != theirs else { return self }
    let shared = zip(mine, theirs).prefix { $0 == $1 }.count
    let prefix = (Array(repeating: "..", count: theirs.count - shared) + mine[shared...]).joined(
      separator: "/")
    func rebased(_ list: [USDArc]) -> [USDArc] {
      list.map {
        var arc = $0
        if !arc.file.isEmpty, arc.file != Self.inheritArc { arc.file = prefix + "/" + arc.file }
        return arc
      }
    }
    var out = self
    out.references = references.mapValues(rebased)
    out.payloads = payloads.mapValues(rebased)
    out.deletedReferences = deletedReferences.mapValues(rebased)
    out.deletedPayloads = deletedPayloads.mapValues(rebased)
    return out
  }
}
