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
    for file in subLayers {
      guard let raw = try load(file, path) else {
        throw USDError(
          path: path, place: "subLayers",
          reason: "names \(file), which \(holder) does not hold")
      }
      out.mergeWeaker(
        try raw.stacked(load: load, depth: depth + 1).rebased(onto: path).retimed(toRate: timeCodesPerSecond))
    }
    return out
  }

  /// The layer with its time samples' time codes converted to those of a layer that sublayers
  /// or references it at `rate` (time codes a second; nil for USD's 24): USD scales such a
  /// layer's times by the ratio of the two rates, so that a sample keeps its time in seconds
  /// (an animation made at 24 a second, sublayered by a stage at 48, plays at the same speed).
  func retimed(toRate rate: Double?) -> USDLayer {
    let scale = (rate ?? 24) / (timeCodesPerSecond ?? 24)
    guard scale != 1, !timeSamples.isEmpty else { return self }
    var out = self
    out.timeSamples = timeSamples.mapValues { (times: $0.times.map { $0 * scale }, values: $0.values) }
    return out
  }

  /// Merges `weaker`'s prims and opinions in where this layer has none: its root prims'
  /// subtrees, references (after this layer's own), variant selections and classes.
  private mutating func mergeWeaker(_ weaker: USDLayer) {
    for root in weaker.prims where root.path.lastASCII("/") == root.path.startIndex {
      graft(weaker, from: root.path, to: root.path)
    }
    for (prim, list) in weaker.references.sorted(by: { $0.key < $1.key }) {
      references[prim, default: []] += list
    }
    for (prim, list) in weaker.payloads.sorted(by: { $0.key < $1.key }) {
      payloads[prim, default: []] += list
    }
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
    func rebased(_ list: [(file: String, prim: String)]) -> [(file: String, prim: String)] {
      list.map {
        $0.file.isEmpty || $0.file == Self.inheritArc ? $0 : (file: prefix + "/" + $0.file, prim: $0.prim)
      }
    }
    var out = self
    out.references = references.mapValues(rebased)
    out.payloads = payloads.mapValues(rebased)
    return out
  }
}
