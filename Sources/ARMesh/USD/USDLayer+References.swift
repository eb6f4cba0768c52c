import ARFiles
import Foundation

extension USDLayer {
  /// The layer with its prims' references and payloads composed in: each referenced prim's
  /// subtree (from this layer, or another layer in the package) grafted under the referencing
  /// prim, the referencing prim's own opinions kept over the referenced ones (USD's strength
  /// order for these two), and paths inside the subtree (material bindings, connections)
  /// moved with it.
  ///
  /// Its sublayers are merged in first (``stacked(load:depth:)``), so that every local opinion of
  /// the stack is stronger than any variant's, as USD orders them.
  ///
  /// - Parameters:
  ///   - load: The layer a reference names (the asset path as written, and the path of the layer
  ///     that writes it, against which a relative one resolves), or nil when its package or
  ///     folder has no such file.
  ///   - depth: How many references deep this layer is: a chain deeper than eight, or a cycle,
  ///     is an error.
  ///   - selections: The variant selections of the prims referencing this layer's, keyed by
  ///     the paths in this layer they reach: stronger than its own.
  ///   - limits: How many arcs, prims and opinions the composition may take on.
  func composed(
    load: (String, String) throws(USDError) -> USDLayer?, depth: Int = 0,
    selections: [String: [String: String]] = [:], limits: USDCompositionLimits = .standard
  ) throws(USDError) -> USDLayer {
    guard depth <= 8 else {
      throw USDError(path: path, place: "references", reason: "more than eight layers deep (a cycle?)")
    }
    // This layer's variant sets at the referencing prims' selections, then at its own; they
    // then choose for what it references.
    let stack = try stacked(load: load, depth: depth)
    let resolved = stack.resolvingVariants(overriding: selections).withoutOpinionsUnderInstances()
    var out = resolved
    out.references = [:]
    out.payloads = [:]
    // A prim's references, then its payloads (weaker), whichever layer of the stack brings each;
    // what an internal reference's target references comes after (weaker), as it is met.
    var pending: [(prim: String, arc: USDArc, hops: Int)] = []
    for (prim, list) in resolved.references.merging(resolved.payloads, uniquingKeysWith: +).sorted(by: {
      $0.key < $1.key
    }) {
      pending += list.map { (prim, $0, 0) }
    }
    // Each prim's variant selections: its own, then (weaker) those an internal reference
    // brings with its target's content.
    var chosen = resolved.variantSelections
    var arrived: Set<[String]> = []
    var arcNotes = USDArcNotes()
    var work = 0
    var next = 0
    while next < pending.count {
      let (prim, arc, hops) = pending[next]
      next += 1
      // An inherit or specializes arc: a prim of this stack, its opinions if it exists.
      let inherits = arc.file == Self.inheritArc
      guard !inherits || resolved.prims.contains(where: { $0.path == arc.prim }) else { continue }
      var reference = inherits ? USDArc(file: "", prim: arc.prim) : arc
      // A reference to one of this layer's own prims by its file's name is an internal one.
      if !reference.file.isEmpty, namesItself(reference.file),
        let own = reference.prim.isEmpty ? stack.defaultPrim.map({ "/" + $0 }) : reference.prim
      {
        (reference.file, reference.prim) = ("", own)
      }
      // A MaterialX document (USD reads it through a plugin) holds materials, no geometry: a
      // material it would fill draws in the default with a warning naming it, as any
      // material without a UsdPreviewSurface does.
      if reference.file.lowercased().hasSuffix(".mtlx") { continue }
      // A prim referencing itself, its ancestor or its descendant in this stack is a cycle:
      // usd-core refuses the arc and composes the rest.
      if Self.isCycle(from: prim, to: reference) {
        if reference.prim != prim {
          arcNotes.add(
            prim,
            "references \(reference.prim), its own ancestor or descendant: a cycle, left out as usd-core leaves it"
          )
        }
        continue
      }
      guard hops <= 8, pending.count <= limits.arcs else {
        throw USDError(
          path: path, place: prim,
          reason: hops > 8
            ? "references more than eight prims deep (a cycle?)"
            : "composes more than \(limits.arcs) references and payloads")
      }
      // The same arc met again through another internal reference adds nothing new.
      guard arrived.insert([prim, reference.file, reference.prim]).inserted else { continue }
      guard
        let found = try arcSource(reference, of: prim, in: stack, load: load, depth: depth, notes: &arcNotes)
      else { continue }
      var source = found.layer
      let target = found.prim
      // The referencing prims' variant selections are stronger than the referenced layer's, in
      // everything the reference brings however deep (a selection reaches the variant sets of
      // a payload's references); another layer comes with its own references composed.
      let overrides = Self.selections(chosen, under: prim, movedTo: target)
      let timing = reference.timing
      if reference.file.isEmpty {
        source = source.resolvingVariants(overriding: overrides)
        // Its samples, and what its subtree references, in the referencing prim's time.
        if timing.movesTime {
          source = source.retimed(toRate: source.timeCodesPerSecond, by: timing, internalArcs: true)
        }
        pending += Self.arcs(of: source, under: target, movedTo: prim).map { ($0.prim, $0.arc, hops + 1) }
        for (path, map) in Self.selections(source.variantSelections, under: target, movedTo: prim) {
          chosen[path, default: [:]].merge(map) { own, _ in own }
        }
      } else {
        source = try source.composed(load: load, depth: depth + 1, selections: overrides, limits: limits)
          .retimed(toRate: reference.rate ?? stack.timeCodesPerSecond, by: timing)
        out.addNotes(of: source)
      }
      out.graft(source, from: target, to: prim)
      try limits.spend(&work, grafting: source, into: out, path: path, prim: prim)
    }
    out.notes += arcNotes.lines(in: path)
    return out
  }

  /// The layer an arc of `prim` reaches and the prim in it: a prim of this layer `stack`,
  /// whichever of its layers defines it, or of another layer (its sublayers merged). Nil, with
  /// a note in `notes`, where a layer without a default prim is named without a prim, or the
  /// prim named is not in it.
  private func arcSource(
    _ reference: USDArc, of prim: String, in stack: USDLayer,
    load: (String, String) throws(USDError) -> USDLayer?, depth: Int, notes: inout USDArcNotes
  ) throws(USDError) -> (layer: USDLayer, prim: String)? {
    var source = stack
    if !reference.file.isEmpty {
      guard let other = try load(reference.file, path) else {
        throw USDError(
          path: path, place: prim, reason: "references \(reference.file), which \(holder) does not hold")
      }
      // Its own sublayers first: the prim named may come from one of them.
      source = try other.stacked(load: load, depth: depth + 1)
    }
    // Without a prim named, the layer's default prim; a layer without one gives nothing, as
    // usd-core skips the arc (its first prim would be a guess).
    guard let target = reference.prim.isEmpty ? source.defaultPrim.map({ "/" + $0 }) : reference.prim else {
      notes.add(
        prim,
        "references \(reference.file), which names no defaultPrim (nor does the reference name a prim): "
          + "nothing of it is composed, as in usd-core")
      return nil
    }
    // A prim the layer does not hold: usd-core warns ("unresolved reference prim path") and
    // composes the rest, as Blender 4.2's geometry-nodes instances need (each names a
    // prototype it never wrote).
    guard source.prims.contains(where: { $0.path == target }) else {
      let named = reference.prim.isEmpty ? "the default prim" : reference.prim
      notes.add(
        prim,
        "references \(named) of \(reference.file.isEmpty ? "this layer" : reference.file), which is not there: "
          + "nothing of it is composed, as in usd-core")
      return nil
    }
    return (source, target)
  }

  /// The variant selections in `table` of the prim `prim` and those under it, keyed by the
  /// paths they take under `target` instead.
  private static func selections(
    _ table: [String: [String: String]], under prim: String, movedTo target: String
  )
    -> [String: [String: String]]
  {
    var out: [String: [String: String]] = [:]
    for (path, chosen) in table {
      if path == prim {
        out[target] = chosen
      } else if path.hasPrefix(prim + "/") {
        out[target + path.dropFirst(prim.count)] = chosen
      }
    }
    return out
  }

  /// The references and payloads of `layer`'s prim `target` and of the prims under it, in
  /// strength order, keyed by the paths they take under `prim` instead.
  private static func arcs(of layer: USDLayer, under target: String, movedTo prim: String)
    -> [(prim: String, arc: USDArc)]
  {
    layer.references.merging(layer.payloads, uniquingKeysWith: +).filter {
      $0.key == target || $0.key.hasPrefix(target + "/")
    }.sorted { $0.key < $1.key }.flatMap { key, list in
      // An arc that is a cycle where it was written stays one when copied (left out there).
      list.filter { !isCycle(from: key, to: $0) }.map { (prim + key.dropFirst(target.count), $0) }
    }
  }

  /// Whether the arc from prim `prim` is an internal one to the prim itself, its ancestor or its
  /// descendant: a cycle, which usd-core refuses.
  private static func isCycle(from prim: String, to arc: USDArc) -> Bool {
    (arc.file.isEmpty || arc.file == inheritArc)
      && (arc.prim == prim || prim.hasPrefix(arc.prim + "/") || arc.prim.hasPrefix(prim + "/"))
  }

  /// What holds the files this layer's references name: its package, or its folder.
  var holder: String { path.hasSuffix("]") ? "the package" : "its folder" }

  /// Whether asset path `file`, as this layer writes it, names this layer itself (usdFlatten's
  /// `@./ref.usd@</Bar>` inside `ref.usd`): loading it again would recurse without end.
  func namesItself(_ file: String) -> Bool {
    func normalized(_ p: String) -> String { URL(fileURLWithPath: p).standardizedFileURL.path }
    // A package's member, named `package.usdz[member]`: its name within the package.
    let member = USDPackagePaths.memberName(of: path)
    let own = member.isEmpty ? path : "/" + member
    let folder = PathNames.folder(of: own)
    let named = file.hasPrefix("/") || folder.isEmpty ? file : folder + "/" + file
    return normalized(named) == normalized(own)
  }

  /// Takes in `other`'s notes that this layer does not have yet (a layer two others name says
  /// its notes once).
  mutating func addNotes(of other: USDLayer) {
    notes += other.notes.filter { !notes.contains($0) }
  }

  /// Copies `source`'s prim `from` and everything under it to `to`, keeping this layer's
  /// opinions where both have one.
  mutating func graft(_ source: USDLayer, from: String, to: String) {
    func moved(_ p: String) -> String? {
      if p == from { return to }
      for separator in ["/", "."] where p.hasPrefix(from + separator) { return to + p.dropFirst(from.count) }
      return nil
    }
    func movedAll(_ ps: [String]) -> [String] { ps.map { moved($0) ?? $0 } }
    // Each prim's place, found once (a graft per prim searched would make a large stage's
    // references quadratic); the new ones go in together after `to`.
    var index: [String: Int] = [:]
    for (k, prim) in prims.enumerated() { index[prim.path] = k }
    var added: [(path: String, type: String)] = [], addedAt: [String: Int] = [:]
    for prim in source.prims {
      guard let p = moved(prim.path) else { continue }
      if let existing = index[p] {
        if prims[existing].type.isEmpty { prims[existing].type = prim.type }
      } else if let k = addedAt[p] {
        if added[k].type.isEmpty { added[k].type = prim.type }
      } else {
        addedAt[p] = added.count
        added.append((p, prim.type))
      }
    }
    prims.insert(contentsOf: added, at: index[to].map { $0 + 1 } ?? prims.count)
    // A prim made inactive in the referenced subtree stays so (the class it came from need not),
    // unless this layer says otherwise: an instance reactivating the inactive prim it references.
    let activeOpinions = activePrims.union(inactivePrims)
    inactivePrims.formUnion(source.inactivePrims.compactMap(moved).filter { !activeOpinions.contains($0) })
    activePrims.formUnion(source.activePrims.compactMap(moved).filter { !activeOpinions.contains($0) })
    // A class under the referenced prim stays abstract; the referenced prim itself takes the
    // referencing prim's specifier.
    abstractPrims.formUnion(source.abstractPrims.compactMap { $0 == from ? nil : moved($0) })
    // An `over` here of a prim the source defines is a defined prim.
    definedPrims.formUnion(source.definedPrims.compactMap(moved))
    overriddenPrims.formUnion(source.overriddenPrims.compactMap(moved))
    for (key, flag) in source.instanceable {
      guard let k = moved(key), instanceable[k] == nil else { continue }
      instanceable[k] = flag
    }
    for (key, kind) in source.kinds {
      guard let k = moved(key), kinds[k] == nil else { continue }
      kinds[k] = kind
    }
    mergeAPISchemas(added: source.apiSchemas, deleted: source.deletedAPISchemas, moved: moved)
    // Before the defaults: an attribute this layer has an opinion on keeps it.
    for (key, samples) in source.timeSamples {
      guard let k = moved(key), values[k] == nil, timeSamples[k] == nil else { continue }
      timeSamples[k] = samples
    }
    for (key, value) in source.values {
      guard let k = moved(key) else { continue }
      // Time samples here and a default there: at the default time USD reads the default (its
      // value resolution skips time samples there), at a time the samples.
      let defaultBelowSamples =
        values[k] != nil && sampledOnly.contains(k) && !source.sampledOnly.contains(key)
      guard values[k] == nil || defaultBelowSamples else { continue }
      if defaultBelowSamples { sampledOnly.remove(k) }
      if source.sampledOnly.contains(key) { sampledOnly.insert(k) }
      if case .paths(let targets) = value { values[k] = .paths(movedAll(targets)) } else { values[k] = value }
    }
    for (key, targets) in source.connections {
      guard let k = moved(key), connections[k] == nil else { continue }
      connections[k] = movedAll(targets)
    }
    for (key, interpolation) in source.interpolations {
      guard let k = moved(key), interpolations[k] == nil else { continue }
      interpolations[k] = interpolation
    }
    halfPrecision.formUnion(source.halfPrecision.compactMap(moved))
    for (key, type) in source.nonDoubleScalars {
      guard let k = moved(key), nonDoubleScalars[k] == nil else { continue }
      nonDoubleScalars[k] = type
    }
    for (key, size) in source.elementSizes {
      guard let k = moved(key), elementSizes[k] == nil else { continue }
      elementSizes[k] = size
    }
  }
}
