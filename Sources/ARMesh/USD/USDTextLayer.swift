/// A layer in USD's text format (`.usda`, `#usda 1.0`) read into a ``USDLayer``: the layer's
/// metadata (units, up axis, default prim), every `def`/`over`/`class` prim with its type,
/// references and payloads, and each attribute's default value (or its first time sample),
/// connections and interpolation, relationships' targets; variant sets' contents under
/// `/Prim/{set=variant}` paths with the prims' selections, for ``USDLayer/resolvingVariants(overriding:)``.
struct USDTextLayer {
  let tokens: [USDTextTokenizer.Token]
  var at = 0
  var layer: USDLayer
  /// How many prims, values and metadata blocks the parser is inside now.
  var nesting = 0

  /// The deepest nesting of prims, values and metadata read: far beyond what exporters write (a
  /// few dozen levels), far below what a thread's stack holds, so 10,000 nested prims or
  /// tuples are an error, not a stack overflow.
  static let maximumNesting = 128

  /// Whether `bytes` start as a text layer does.
  static func isText(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.starts(with: Array("#usda ".utf8)) }

  /// Reads the text layer `bytes` from `path` (for errors), a member of the package
  /// `packagePaths` describes where one does.
  static func read(
    _ bytes: ArraySlice<UInt8>, path: String, packagePaths: USDPackagePaths? = nil
  ) throws(USDError) -> USDLayer {
    guard isText(bytes) else { throw USDError(path: path, place: "line 1", reason: "no #usda header") }
    let body = bytes[(bytes.firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.endIndex)...]
    var parser = USDTextLayer(
      tokens: try USDTextTokenizer.tokens(body, path: path, firstLine: 2),
      layer: USDLayer(path: path, packagePaths: packagePaths))
    try parser.parseLayer()
    return parser.layer
  }

  private init(tokens: [USDTextTokenizer.Token], layer: USDLayer) {
    self.tokens = tokens
    self.layer = layer
  }

  // MARK: Tokens

  var peek: USDTextTokenizer.Token? { at < tokens.count ? tokens[at] : nil }

  func fail(_ reason: String) -> USDError {
    let line = peek?.line ?? tokens.last?.line ?? 1
    return USDError(path: layer.path, place: "line \(line)", reason: reason)
  }

  /// Notes one more level of nesting; an error past ``maximumNesting``. Pair with `nesting -= 1`.
  mutating func enter(_ what: String) throws(USDError) {
    guard nesting < Self.maximumNesting else {
      throw fail("\(what) nested more than \(Self.maximumNesting) levels deep")
    }
    nesting += 1
  }

  func isPunctuation(_ text: String) -> Bool { peek?.kind == .punctuation && peek?.text == text }

  mutating func next() throws(USDError) -> USDTextTokenizer.Token {
    guard let token = peek else { throw fail("the layer ends early (a truncated file?)") }
    at += 1
    return token
  }

  mutating func expect(_ text: String) throws(USDError) {
    guard isPunctuation(text) else { throw unexpected("'\(text)'") }
    at += 1
  }

  /// The error for a token other than `expected` (or none: a truncated layer).
  func unexpected(_ expected: String) -> USDError {
    guard let token = peek else { return fail("the layer ends early (a truncated file?)") }
    return fail("expected \(expected), found '\(token.text.quotedForMessage)'")
  }

  // MARK: Layer and prims

  private mutating func parseLayer() throws(USDError) {
    if isPunctuation("(") {
      for (key, value, line) in try metadata() {
        switch (key, value) {
        case ("metersPerUnit", .number(let m)):
          guard m.isFinite, m > 0 else {
            throw USDError(
              path: layer.path, place: "line \(line)", reason: "metersPerUnit \(m) is not a positive length")
          }
          layer.metersPerUnit = m
        case ("upAxis", .string(let axis)): layer.upAxis = axis
        case ("defaultPrim", .string(let prim)): layer.defaultPrim = prim
        case ("fallbackPrimTypes", .dictionary(let entries)):
          for (type, value) in entries {
            guard case .list(let names) = value else { continue }
            layer.fallbackPrimTypes[type] = Self.strings(names)
          }
        case ("subLayers", .list(let files)):
          for item in files {
            guard case .asset(let file) = item.unshifted else { continue }
            layer.subLayers.append(file)
            if case .shifted(_, let shift) = item {
              layer.subLayerOffsets.append(shift)
            } else {
              layer.subLayerOffsets.append(.identity)
            }
          }
        case ("timeCodesPerSecond", .number(let rate)):
          // usd-core opens such a layer and hands the rate on: a time in seconds has no time code.
          guard rate.isFinite, rate > 0 else {
            layer.notes.append(
              USDLayer.unusableRateNote("timeCodesPerSecond", rate, in: layer.path, at: "line \(line)"))
            continue
          }
          layer.timeCodesPerSecond = rate
        case ("framesPerSecond", .number(let rate)):
          // usd-core's parser refuses the layer ("invalid value for field").
          guard rate.isFinite, rate > 0 else {
            throw USDError(
              path: layer.path, place: "line \(line)",
              reason: "framesPerSecond \(rate) is not a positive rate")
          }
          layer.timeCodesPerSecond = layer.timeCodesPerSecond ?? rate
        default: break
        }
      }
    }
    while let token = peek {
      // `reorder rootPrims = [...]` (usdcat and Reality Composer Pro write it): an order for the
      // root prims, which changes no geometry, as `reorder nameChildren` in a prim.
      if token.kind == .name, token.text == "reorder", at + 1 < tokens.count,
        tokens[at + 1].text == "rootPrims"
      {
        at += 2
        try expect("=")
        _ = try value()
        continue
      }
      try prim(parent: "")
    }
  }

  /// A prim spec and everything in its braces, under `parent`.
  private mutating func prim(parent: String) throws(USDError) {
    try enter("prims")
    defer { nesting -= 1 }
    let specifier = try next()
    guard specifier.kind == .name, ["def", "over", "class"].contains(specifier.text) else {
      throw fail("expected def, over or class, found '\(specifier.text.quotedForMessage)'")
    }
    var type = ""
    if peek?.kind == .name { type = try next().text }
    let name = try next()
    guard name.kind == .string, !name.text.isEmpty else { throw fail("a prim without a quoted name") }
    // A name with a `.` or `/` (`"a.bora"`) would read as a path to another prim's property.
    guard Self.isIdentifier(name.text) else {
      throw USDError(
        path: layer.path, place: "line \(name.line)",
        reason:
          "prim name '\(name.text.quotedForMessage)' is not an identifier (a letter or _, then letters, "
          + "digits or _), which usd-core requires")
    }
    let path = parent + "/" + name.text
    // A layer specifies a prim once: usd-core refuses a second spec of the same path (a `def`
    // and an `over` of one name included) as a duplicate prim, and merging the two would draw
    // one of them without a word.
    guard !layer.definedPrims.contains(path), !layer.overriddenPrims.contains(path) else {
      throw USDError(
        path: layer.path, place: "line \(name.line)",
        reason: "prim \(path) is specified twice in this layer (usd-core refuses it as a duplicate prim)")
    }
    if isPunctuation("(") { try primMetadata(of: path) }
    layer.prims.append((path, type))
    if specifier.text == "class" { layer.abstractPrims.insert(path) }
    if specifier.text == "over" {
      layer.overriddenPrims.insert(path)
    } else {
      layer.definedPrims.insert(path)
    }
    try body(of: path)
  }

  /// Whether `name` is a USD identifier, as a prim's name must be (in text and binary layers): a scalar that may start an
  /// identifier in Unicode (XID_Start) or `_`, then scalars that may continue one (XID_Continue),
  /// as usd-core's UTF-8 identifiers are.
  static func isIdentifier(_ name: String) -> Bool {
    // ASCII names, nearly all of them, without Unicode's property tables (a lookup a scalar).
    let utf8 = name.utf8
    if let first = utf8.first, utf8.allSatisfy({ $0 < 0x80 }) {
      /// Whether ASCII byte `b` is a letter or `_`.
      func starts(_ b: UInt8) -> Bool { b == UInt8(ascii: "_") || (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
      return starts(first) && utf8.dropFirst().allSatisfy { starts($0) || $0 >= 0x30 && $0 <= 0x39 }
    }
    guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart else {
      return false
    }
    return name.unicodeScalars.dropFirst().allSatisfy(\.properties.isXIDContinue)
  }

  /// The references, payloads, variant selections and applied API schemas in a prim's (or a
  /// variant's) metadata.
  private mutating func primMetadata(of path: String) throws(USDError) {
    for (key, value, line) in try metadata(layerOffsets: true) {
      switch (key, value) {
      case ("clips", _), ("clipSets", _):
        layer.notes.append(USDLayer.note(.valueClips, of: path, in: layer.path, at: "line \(line)"))
      case ("references", _): layer.references[path, default: []] += Self.references(value)
      case ("payload", _): layer.payloads[path, default: []] += Self.references(value)
      case ("delete references", _): layer.deletedReferences[path, default: []] += Self.references(value)
      case ("delete payload", _): layer.deletedPayloads[path, default: []] += Self.references(value)
      case ("inherits", _): layer.inherit(path, from: Self.references(value).map(\.prim))
      case ("specializes", _):
        layer.payloads[path, default: []] += Self.references(value).map {
          USDArc(file: USDLayer.inheritArc, prim: $0.prim)
        }
      case ("active", .word("false")), ("active", .number(0)): layer.inactivePrims.insert(path)
      case ("active", .word("true")), ("active", .number(1)): layer.activePrims.insert(path)
      case ("instanceable", .word("true")), ("instanceable", .number(1)): layer.instanceable[path] = true
      case ("instanceable", .word("false")), ("instanceable", .number(0)): layer.instanceable[path] = false
      case ("kind", .string(let kind)): layer.kinds[path] = kind
      case ("apiSchemas", .list(let items)):
        layer.addAPISchemas(Self.strings(items), deleting: [], to: path)
      case ("delete apiSchemas", .list(let items)):
        layer.addAPISchemas([], deleting: Self.strings(items), to: path)
      case ("variants", .dictionary(let entries)):
        for case (let set, .string(let selection)) in entries {
          layer.variantSelections[path, default: [:]][set] = selection
        }
      default: break
      }
    }
  }

  /// The strings of a list's items (`["SkelBindingAPI"]`), its other items left out.
  private static func strings(_ items: [USDTextValue]) -> [String] {
    items.compactMap { if case .string(let text) = $0 { text } else { nil } }
  }

  /// `{ … }` after a prim (or a variant): its properties, child prims and variant sets.
  private mutating func body(of path: String) throws(USDError) {
    try expect("{")
    while !isPunctuation("}") {
      guard let token = peek else { throw fail("prim \(path) is not closed (a truncated file?)") }
      if token.kind == .name, ["def", "over", "class"].contains(token.text) {
        try prim(parent: path)
      } else if token.kind == .name, token.text == "variantSet" {
        try variantSet(of: path)
      } else if token.kind == .punctuation, token.text == ";" {
        at += 1  // statements may end in a semicolon, as in metadata
      } else {
        try property(of: path)
      }
    }
    at += 1
  }

  /// `variantSet "name" = { "a" [( … )] { … } … }`: each variant's opinions kept under
  /// `prim/{name=a}`, as a binary layer keys them, for the selection to pick from.
  private mutating func variantSet(of prim: String) throws(USDError) {
    try enter("variant sets")
    defer { nesting -= 1 }
    at += 1
    let set = try next()
    guard set.kind == .string, !set.text.isEmpty, !set.text.contains(where: { "{}=/".contains($0) }) else {
      throw fail("a variant set without a quoted name, or with {, }, = or / in it")
    }
    try expect("=")
    try expect("{")
    while !isPunctuation("}") {
      let variant = try next()
      guard variant.kind == .string, !variant.text.contains(where: { "{}=/".contains($0) }) else {
        throw fail(
          "a variant of set \(set.text.quotedForMessage) without a quoted name, or with {, }, = or / in it")
      }
      let path = prim + "/{" + set.text + "=" + variant.text + "}"
      if isPunctuation("(") { try primMetadata(of: path) }
      try body(of: path)
    }
    at += 1
  }

  /// The arc of each `@file@</prim>` (and its layer offset) in a references or payload value.
  private static func references(_ value: USDTextValue) -> [USDArc] {
    switch value {
    case .asset(let file): [USDArc(file: file, prim: "")]
    case .path(let prim): [USDArc(file: "", prim: prim)]
    case .reference(let file, let prim): [USDArc(file: file, prim: prim)]
    case .shifted(let arc, let shift):
      references(arc).map { USDArc(file: $0.file, prim: $0.prim, timing: shift) }
    case .list(let items): items.flatMap(references)
    default: []
    }
  }
}
