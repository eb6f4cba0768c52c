import ARFiles
import ARMath
import Dispatch

/// One USD layer's opinions, as the stage reader uses them: its prims in order, its
/// properties' default values, connections and primvar interpolations, and the stage's units.
/// Read from a binary crate (``init(crate:)``) or from USD's text format (``USDTextLayer``).
struct USDLayer {
  /// The file the layer came from, for errors (`cube.usdz`, or `cube.usdz[parts/arm.usda]`).
  var path: String
  /// For a package's member, how the paths it writes name the package's files (nil for a bare
  /// layer file).
  var packagePaths: USDPackagePaths?
  /// Each prim path (in the layer's order) with its type name.
  var prims: [(path: String, type: String)] = []
  /// Each property's default value, by its path (`/Cube/Cube.points`).
  var values: [String: USDValue] = [:]
  /// Each attribute's connections (`inputs:diffuseColor.connect`) and each primvar's
  /// interpolation, by the attribute's path.
  var connections: [String: [String]] = [:]
  var interpolations: [String: String] = [:]
  /// The attributes of a half-precision type (`half3[]`, `quath`): read, and blended between
  /// samples, at that precision, as USD holds them.
  var halfPrecision: Set<String> = []
  /// The numeric scalar attributes declared with a type other than `double` (`float radius`),
  /// by path, with that type: where a schema says `double` (an implicit shape's size) usd-core
  /// reads no value from them.
  var nonDoubleScalars: [String: String] = [:]
  /// Each primvar's `elementSize` where it is not 1 (a skinned mesh's influences a point).
  var elementSizes: [String: Int] = [:]
  /// Each animated attribute's time samples (time codes, increasing), by its path.
  var timeSamples: [String: (times: [Double], values: [USDValue])] = [:]
  /// The attributes whose ``values`` entry is their first sample, not an authored default: a
  /// transform op among them is the identity at the default time, as in USD.
  var sampledOnly: Set<String> = []
  /// Time codes a second: the layer's `timeCodesPerSecond`, else its `framesPerSecond`, else
  /// USD's 24.
  var timeCodesPerSecond: Double?
  /// Each prim's references and payloads (the package file, empty for this layer, and the prim
  /// in it, empty for its default prim), by the referencing prim's path.
  var references: [String: [USDArc]] = [:]
  /// Each prim's payloads, as ``references``: weaker than its references whichever layers
  /// bring them (USD's strength order: references, then payloads).
  var payloads: [String: [USDArc]] = [:]
  /// Each prim's references and payloads its list operations delete (`delete references = …`):
  /// weaker layers of the stack lose them (``USDArc/isSame(as:)``), as USD's list ops compose.
  var deletedReferences: [String: [USDArc]] = [:], deletedPayloads: [String: [USDArc]] = [:]
  /// The layer's sublayers (`subLayers`), strongest first: layers whose prims and opinions the
  /// stage takes where this layer has none.
  var subLayers: [String] = []
  /// The layer offsets of ``subLayers``, by position (a sublayer past the end has none).
  var subLayerOffsets: [USDLayerOffset] = []
  /// Prim `prim` inheriting from the prims at `classes` in this layer stack: their opinions
  /// composed as internal references, stronger than its own references and payloads (USD's
  /// inherit arc, before references in strength; a class's opinions reach only the prims that
  /// inherit it here, not instances across references). Specializes arcs, the weakest, are
  /// composed after the payloads.
  mutating func inherit(_ prim: String, from classes: [String]) {
    references[prim, default: []].insert(
      contentsOf: classes.map { USDArc(file: Self.inheritArc, prim: $0) }, at: 0)
  }

  /// `arcs` of prim `prim` in the layer at `layer` with their layer offsets as they are
  /// applied (``USDLayerOffset/applicable(for:in:at:notes:)``), warning here of any not valid.
  mutating func applicable(_ arcs: [USDArc], in layer: String, at prim: String) -> [USDArc] {
    arcs.map {
      var arc = $0
      arc.timing = arc.timing.applicable(for: arc.file, in: layer, at: prim, notes: &notes)
      return arc
    }
  }

  /// An asset path as this layer writes it, anchored as USD anchors it: a relative path in a
  /// bare layer file is relative to that file's folder, so it is kept joined to it (a texture
  /// named by a layer in a subfolder, `../textures/wood.png`, stays that layer's, wherever its
  /// prims are composed). In a package it becomes the name of the package's file it reaches
  /// from the outermost package (``USDPackagePaths``), a nested package's member kept as
  /// written after it (`parts.usdz[wood.png]`). An absolute path, a URL or nothing is kept as written.
  func anchored(_ asset: String) -> String {
    guard !asset.isEmpty, !asset.hasPrefix("/"), !asset.contains(":") else { return asset }
    if let packagePaths {
      let (outer, inner) = USDPackagePaths.split(asset)
      // One that leads out of the package is kept as written: no file of it has that name.
      let member = packagePaths.member(outer, writtenBy: USDPackagePaths.memberName(of: path))
      return member.map { packagePaths.qualified($0 + (inner.map { "[" + $0 + "]" } ?? "")) } ?? asset
    }
    guard !path.hasSuffix("]") else { return asset }
    let folder = PathNames.folder(of: path)
    return folder.isEmpty ? asset : folder + "/" + asset
  }

  /// Where ``values`` keeps the `bindMaterialAs` metadata of the material binding at
  /// `relationship` (`strongerThanDescendants` or `weakerThanDescendants`, a token): beside the
  /// relationship, so that composition moves it along with it.
  static func bindingStrength(of relationship: String) -> String { relationship + ":bindMaterialAs" }

  /// What animates a prim or an attribute that ARScene does not read, with the words of its
  /// warning: a prim's value clips (`clips` or `clipSets`), from whose layers USD may take time
  /// samples, and an attribute's spline (`.spline`, USD 25's animation curves), which usd-core
  /// evaluates. The layers' own defaults and time samples are used instead.
  enum UnreadAnimation {
    case valueClips, spline

    /// The warning's words after the prim or attribute it names.
    var words: String {
      switch self {
      case .valueClips:
        "names value clips, which are not read: its attributes take the layers' own values and time samples, "
          + "where USD may take samples from the clips' layers"
      case .spline:
        "is animated by a spline, which is not read: its default value and time samples are used, "
          + "where usd-core evaluates the curve"
      }
    }
  }

  /// The warning that `subject` (a prim or an attribute), at `place` of the layer at `layer` (a
  /// line, or the subject itself in a binary layer), has animation `unread`.
  static func note(_ unread: UnreadAnimation, of subject: String, in layer: String, at place: String)
    -> String
  {
    "\(layer): \(place == subject ? "" : place + ": ")\(subject) \(unread.words)"
  }

  /// The warning for a layer's rate `field` (`timeCodesPerSecond`, or a crate's
  /// `framesPerSecond`) authored as `rate`, not a positive number, at `place` of layer `path`:
  /// it is not used, and times in seconds are converted at the layer's other rate, else at
  /// USD's 24 a second.
  static func unusableRateNote(_ field: String, _ rate: Double, in path: String, at place: String) -> String {
    "\(path): \(place): \(field) \(rate) is not a positive rate and is not used: times in seconds (--time, "
      + "animations) are converted at the layer's other rate if it gives a positive one, else at USD's 24 a second"
  }

  /// Where ``values`` keeps the `weight` metadata of a blend shape's in-between at `attribute`
  /// (`inbetweens:NAME`, a double): beside the attribute, so that composition moves it along.
  static func inbetweenWeight(of attribute: String) -> String { attribute + ":weight" }

  /// The file of an inherit or specializes arc among ``references`` and ``payloads``: a prim of
  /// this layer stack that need not exist (a class no layer defines adds nothing).
  static let inheritArc = "\u{1}inherits"

  /// What was read but is not applied, one line each (a layer offset's shift of time): the
  /// stage's warnings, with those of every layer composed into it.
  var notes: [String] = []
  /// The `class` prims (abstract: drawn only where something references them) and those made
  /// inactive (`active = false`): neither is drawn, nor anything under it.
  var abstractPrims: Set<String> = [], inactivePrims: Set<String> = []
  /// The prims with an authored `active = true`: an opinion stronger than a weaker layer's or a
  /// referenced prim's `active = false` (an instance that reactivates the prim it references).
  var activePrims: Set<String> = []
  /// The prims some layer defines (`def` or `class`) and those some layer overrides (`over`): a
  /// prim only ever overridden (an override of something no layer brings) is not on the stage,
  /// nor anything under it.
  var definedPrims: Set<String> = [], overriddenPrims: Set<String> = []
  /// Each prim's variant selections (set → variant), by the prim's path. A variant's own
  /// opinions are keyed under `/Prim/{set=variant}` until ``resolvingVariants(overriding:)`` picks them.
  var variantSelections: [String: [String: String]] = [:]
  /// Each prim's `instanceable` opinion: an instance's descendants come from its prototype
  /// alone (``withoutOpinionsUnderInstances()``).
  var instanceable: [String: Bool] = [:]
  /// Each prim's applied API schemas (its `apiSchemas` list op's items, a stronger layer's
  /// first), and those it deletes from weaker layers' (which composition leaves out): UsdSkel
  /// reads a prim's binding properties only where `SkelBindingAPI` is applied.
  var apiSchemas: [String: [String]] = [:], deletedAPISchemas: [String: [String]] = [:]
  /// Each prim's model `kind` (`component`, `group`...): BBoxCache bounds what is under a
  /// component or subcomponent in that prim's own space (``USDStageReader/boundsFrame(of:)``).
  var kinds: [String: String] = [:]
  /// The layer's metadata: units (USD's fallback is the centimetre), up axis, default prim.
  var metersPerUnit = 0.01
  var upAxis = "Y"
  var defaultPrim: String?
  /// The layer's `fallbackPrimTypes`: types to read prims of unknown types as
  /// (``USDFallbackPrimTypes``).
  var fallbackPrimTypes: [String: [String]] = [:]

  init(path: String, packagePaths: USDPackagePaths? = nil) {
    self.path = path
    self.packagePaths = packagePaths
  }

  /// Reads the prims and properties of binary crate layer `crate`, but the attributes' default
  /// arrays, which it lists in `deferred` (attribute path, value's representation) for
  /// ``init(crate:packagePaths:)`` to set once they are decoded.
  mutating func readSpecs(of crate: USDCrate, deferring deferred: inout [(path: String, rep: UInt64)])
    throws(USDError)
  {
    // An attribute or relationship a spec, about: no rehashing as the values come in.
    values.reserveCapacity(crate.specs.count)
    for s in crate.specs.indices {
      let path = crate.paths[crate.specs[s].path]
      let fields = crate.fields(ofSpec: s)
      switch crate.specs[s].type {
      case 7: try readStageMetadata(fields, of: crate, at: path)  // the pseudo-root
      case 6, 10:  // a prim, or a variant (whose opinions are its prim's when selected)
        var type = ""
        // Defined unless its specifier says `over` (a spec without one is a `def`).
        if crate.specs[s].type == 6 {
          let over = fields.contains {
            $0.0 == "specifier" && $0.1 >> 48 & 0xFF == 42 && $0.1 & 0xFFFF_FFFF == 1
          }
          if over { overriddenPrims.insert(path) } else { definedPrims.insert(path) }
        }
        for (name, rep) in fields {
          if name == "clips" || name == "clipSets" {
            notes.append(Self.note(.valueClips, of: path, in: crate.path, at: path))
          }
          // Inlined specifier (def 0, over 1, class 2) and bool values.
          if name == "specifier", rep >> 48 & 0xFF == 42, rep & 0xFFFF_FFFF == 2 {
            abstractPrims.insert(path)
          }
          if name == "active", rep >> 48 & 0xFF == 1 {
            if rep & 0xFF == 0 { inactivePrims.insert(path) } else { activePrims.insert(path) }
          }
          if name == "instanceable", rep >> 48 & 0xFF == 1 { instanceable[path] = rep & 0xFF != 0 }
          guard Self.decodedPrimFields.contains(name) else { continue }
          switch (name, try USDValue.decode(rep, in: crate, at: path)) {
          case ("typeName", .token(let t)?): type = t
          case ("references", .references(let list, let deleted)?):
            references[path, default: []] += applicable(list, in: crate.path, at: path)
            if !deleted.isEmpty { deletedReferences[path, default: []] += deleted }
          case ("payload", .references(let list, let deleted)?):
            payloads[path, default: []] += applicable(list, in: crate.path, at: path)
            if !deleted.isEmpty { deletedPayloads[path, default: []] += deleted }
          case ("inheritPaths", .paths(let classes)?): inherit(path, from: classes)
          case ("specializes", .paths(let bases)?):
            payloads[path, default: []] += bases.map { USDArc(file: Self.inheritArc, prim: $0) }
          case ("variantSelection", .selections(let map)?): variantSelections[path] = map
          case ("kind", .token(let kind)?): kinds[path] = kind
          case ("apiSchemas", .tokenList(let added, let deleted)?):
            addAPISchemas(added, deleting: deleted, to: path)
          default: break
          }
        }
        if crate.specs[s].type == 6 { prims.append((path, type)) }
      case 1: try readAttribute(fields, of: crate, at: path, deferring: &deferred)  // an attribute
      case 8:  // a relationship: its targets, and a material binding's strength
        for (name, rep) in fields where name == "targetPaths" || name == "bindMaterialAs" {
          values[name == "targetPaths" ? path : Self.bindingStrength(of: path)] = try USDValue.decode(
            rep, in: crate, at: path)
        }
      default: break
      }
    }
  }

  /// The prim fields ``init(crate:packagePaths:)`` decodes (the others it reads from their
  /// inlined bits, or not at all).
  private static let decodedPrimFields: Set<String> = [
    "typeName", "references", "payload", "variantSelection", "inheritPaths", "specializes", "apiSchemas",
    "kind",
  ]

  /// Adds one spec's `apiSchemas` list op to prim `path`: the schemas it adds (explicit,
  /// prepended or appended) and those it deletes.
  mutating func addAPISchemas(_ added: [String], deleting deleted: [String], to path: String) {
    if !added.isEmpty {
      apiSchemas[path, default: []] += added.filter { !(apiSchemas[path] ?? []).contains($0) }
    }
    if !deleted.isEmpty { deletedAPISchemas[path, default: []] += deleted }
  }

  /// Merges a weaker opinion's applied API schemas (`added` and `deleted`, by prim; `moved`
  /// gives each prim's path here, nil for one not taken) in after this layer's own, but those
  /// this layer deletes; this layer's deletions then reach the layers weaker still.
  mutating func mergeAPISchemas(
    added: [String: [String]], deleted: [String: [String]], moved: (String) -> String?
  ) {
    for (prim, list) in added {
      guard let p = moved(prim) else { continue }
      let deleted = deletedAPISchemas[p] ?? []
      addAPISchemas(list.filter { !deleted.contains($0) }, deleting: [], to: p)
    }
    for (prim, list) in deleted {
      guard let p = moved(prim) else { continue }
      addAPISchemas([], deleting: list, to: p)
    }
  }

  /// An attribute's `fields`: its default value (an array's left in `deferred`, decoded on
  /// other threads), time samples, connections, type and the metadata ARScene uses.
  private mutating func readAttribute(
    _ fields: [(name: String, rep: UInt64)], of crate: USDCrate, at path: String,
    deferring deferred: inout [(path: String, rep: UInt64)]
  ) throws(USDError) {
    for (name, rep) in fields {
      switch name {
      case "spline": notes.append(Self.note(.spline, of: path, in: crate.path, at: path))
      case "default":
        if rep & (1 << 63) != 0 {
          deferred.append((path, rep))
        } else if var value = try USDValue.decode(rep, in: crate, at: path) {
          if rep >> 48 & 0xFF == 12, case .token(let file) = value { value = .token(anchored(file)) }
          setDefault(value, of: path)
        }
      case "timeSamples":
        guard case .timeSamples(let times, let samples)? = try USDValue.decode(rep, in: crate, at: path),
          !times.isEmpty
        else { break }
        timeSamples[path] = (times, samples)
        // Without a default, a stage read at no particular time shows the first sample.
        if values[path] == nil {
          values[path] = samples[0]
          sampledOnly.insert(path)
        }
      case "connectionPaths":
        if case .paths(let targets)? = try USDValue.decode(rep, in: crate, at: path) {
          connections[path] = targets
        }
      case "typeName":
        if case .token(let type)? = try USDValue.decode(rep, in: crate, at: path) {
          if USDValue.isHalf(type) { halfPrecision.insert(path) }
          if USDValue.nonDoubleScalarTypes.contains(type) { nonDoubleScalars[path] = type }
        }
      case "elementSize":
        // An inlined int.
        if rep >> 48 & 0xFF == 3 { elementSizes[path] = Int(Int32(truncatingIfNeeded: rep)) }
      case "interpolation":
        if case .token(let t)? = try USDValue.decode(rep, in: crate, at: path) {
          interpolations[path] = t
        }
      case "weight":
        if case .double(let w)? = try USDValue.decode(rep, in: crate, at: path) {
          values[Self.inbetweenWeight(of: path)] = .double(w)
        }
      default: break
      }
    }
  }

  /// The stage's metadata from the pseudo-root's `fields`: units, up axis, default prim,
  /// sublayers and time codes a second.
  private mutating func readStageMetadata(
    _ fields: [(name: String, rep: UInt64)], of crate: USDCrate, at path: String
  ) throws(USDError) {
    for (name, rep) in fields {
      if name == "metersPerUnit", case .double(let m)? = try USDValue.decode(rep, in: crate, at: path) {
        guard m.isFinite, m > 0 else {
          throw USDError(path: crate.path, place: path, reason: "metersPerUnit \(m)")
        }
        metersPerUnit = m
      }
      if name == "upAxis", case .token(let axis)? = try USDValue.decode(rep, in: crate, at: path) {
        // Stored as a string, not a token (a Reality Composer Pro part): usd-core's UsdGeom
        // reads no axis from it (a type error; its viewers take Y), and neither does ARScene.
        if rep >> 48 & 0xFF == 10 {
          notes.append(
            "\(crate.path): upAxis \(axis.quotedForMessage) is stored as a string, not a token: "
              + "usd-core reads no axis from it (a type error), and it is read as Y up, as usd-core's viewers take it"
          )
        } else {
          upAxis = axis
        }
      }
      if name == "defaultPrim", case .token(let prim)? = try USDValue.decode(rep, in: crate, at: path) {
        defaultPrim = prim
      }
      if name == "fallbackPrimTypes" {
        fallbackPrimTypes = try USDFallbackPrimTypes.decode(rep, in: crate, at: path)
      }
      if name == "subLayers", case .tokens(let files)? = try USDValue.decode(rep, in: crate, at: path) {
        subLayers = files
      }
      if name == "subLayerOffsets",
        case .layerOffsets(let found)? = try USDValue.decode(rep, in: crate, at: path)
      {
        subLayerOffsets = found
      }
      if name == "timeCodesPerSecond" || name == "framesPerSecond" && timeCodesPerSecond == nil,
        case .double(let rate)? = try USDValue.decode(rep, in: crate, at: path)
      {
        guard rate.isFinite, rate > 0 else {
          notes.append(Self.unusableRateNote(name, rate, in: crate.path, at: "layer metadata"))
          continue
        }
        timeCodesPerSecond = rate
      }
    }
    // The fields come in any order: the offsets are checked once both lists are known.
    subLayerOffsets = zip(subLayers, subLayerOffsets).map {
      $1.applicable(for: $0, in: crate.path, at: "subLayers", notes: &notes)
    }
  }
}
