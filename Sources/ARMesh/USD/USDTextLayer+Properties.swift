extension USDTextLayer {
  /// List-editing keywords before a property or a metadata key.
  static let listOperations: Set<String> = ["prepend", "append", "add", "delete", "reorder"]

  /// An attribute (`[custom] [uniform] type[ ][] name[.connect | .timeSamples] [= value] [( … )]`)
  /// or a relationship (`rel name [= targets]`) of prim `prim`.
  mutating func property(of prim: String) throws(USDError) {
    var listOperation: String?
    while let token = peek, token.kind == .name,
      ["custom", "uniform", "varying", "config"].contains(token.text)
        || Self.listOperations.contains(token.text)
    {
      if Self.listOperations.contains(token.text) { listOperation = token.text }
      at += 1
    }
    let typeToken = try next()
    guard typeToken.kind == .name else {
      at -= 1
      throw unexpected("a property")
    }
    // `reorder nameChildren = [...]` and `reorder properties = [...]` (Reality Composer Pro
    // writes them): an order for the children or properties, which changes no geometry.
    if listOperation == "reorder", ["nameChildren", "properties"].contains(typeToken.text), isPunctuation("=")
    {
      at += 1
      _ = try self.value()
      return
    }
    var type = typeToken.text
    if type != "rel", isPunctuation("[") {
      at += 1
      try expect("]")
      type += "[]"
    }
    let nameToken = try next()
    guard nameToken.kind == .name else { throw fail("a property of \(prim) without a name") }
    let path = prim + "." + nameToken.text
    if USDValue.isHalf(type) { layer.halfPrecision.insert(path) }
    if USDValue.nonDoubleScalarTypes.contains(type) { layer.nonDoubleScalars[path] = type }
    var field = "default"
    if isPunctuation(".") {
      at += 1
      field = try next().text
    }
    var value: USDTextValue?
    if isPunctuation("=") {
      at += 1
      value = try self.value()
    }
    if isPunctuation("(") {
      for (key, metadataValue, _) in try metadata() {
        switch (key, metadataValue) {
        case ("interpolation", .string(let interpolation)): layer.interpolations[path] = interpolation
        case ("elementSize", .number(let n)) where n == n.rounded() && abs(n) < 1e9:
          layer.elementSizes[path] = Int(n)
        case ("bindMaterialAs", .string(let strength)):
          layer.values[USDLayer.bindingStrength(of: path)] = .token(strength)
        case ("weight", .number(let w)): layer.values[USDLayer.inbetweenWeight(of: path)] = .double(w)
        default: break
        }
      }
    }
    guard let value, listOperation != "delete" else { return }
    if field == "spline" {
      layer.notes.append(USDLayer.note(.spline, of: path, in: layer.path, at: "line \(nameToken.line)"))
      return
    }
    store(value, type: type, field: field, at: path)
  }

  /// `target` made absolute, as `SdfPath.MakeAbsolutePath` makes it: a relative path anchored at
  /// the prim path `anchor` (`..` its parent, `.` itself, `.name` its property).
  static func absolute(_ target: String, anchor: String) -> String {
    guard !target.isEmpty, !target.hasPrefix("/") else { return target }
    var base = anchor.split(separator: "/").map(String.init)
    var rest = Substring(target)
    while true {
      if rest == ".." || rest.hasPrefix("../") {
        if !base.isEmpty { base.removeLast() }
        rest = rest.dropFirst(min(3, rest.count))
      } else if rest.hasPrefix("./") {
        rest = rest.dropFirst(2)
      } else {
        break
      }
    }
    let prim = "/" + base.joined(separator: "/")
    if rest.isEmpty || rest == "." { return prim }
    if rest.hasPrefix(".") { return prim + rest }
    return (prim == "/" ? "" : prim) + "/" + rest
  }

  /// Keeps what the stage reader uses of a property's value: a relationship's targets, an
  /// attribute's connections, its default value or else its first time sample.
  private mutating func store(_ value: USDTextValue, type: String, field: String, at path: String) {
    // A relative target (`<Prototypes/Mesh>`, `<../Looks/Red>`) is anchored at the property's prim.
    let slash = path.lastASCII("/") ?? path.startIndex
    let prim = String(path[..<(path[slash...].firstIndex(of: ".") ?? path.endIndex)])
    func paths(_ v: USDTextValue) -> [String] {
      switch v {
      case .path(let p): [Self.absolute(p, anchor: prim)]
      case .list(let items): items.flatMap(paths)
      default: []
      }
    }
    if type == "rel" {
      layer.values[path] = .paths(paths(value))
      return
    }
    switch field {
    case "connect": layer.connections[path] = paths(value)
    case "timeSamples":
      // Without a default, a stage read at no particular time shows the first sample.
      if case .timeSamples(let times, let values) = value, !times.isEmpty {
        let converted = values.compactMap { self.converted($0, to: type) }
        // Every sample read, or none: an attribute is never animated from part of its samples.
        if converted.count == values.count {
          layer.timeSamples[path] = (times, converted)
          if layer.values[path] == nil {
            layer.values[path] = converted[0]
            layer.sampledOnly.insert(path)
          }
        }
      }
    default:
      if var converted = converted(value, to: type) {
        if type == "asset", case .token(let file) = converted { converted = .token(layer.anchored(file)) }
        layer.values[path] = converted
        layer.sampledOnly.remove(path)
      }
    }
  }

  /// `value` as the stage keeps a property of `type`: a half-precision one rounded to it, as USD
  /// parses it into halves.
  private func converted(_ value: USDTextValue, to type: String) -> USDValue? {
    let converted = value.converted(to: type)
    return USDValue.isHalf(type) ? converted?.roundedToHalf : converted
  }

  /// `( key = value … )`, list operations and doc strings allowed, as (key, value) pairs.
  mutating func metadata(layerOffsets: Bool = false) throws(USDError) -> [(
    key: String, value: USDTextValue, line: Int
  )] {
    try enter("metadata")
    defer { nesting -= 1 }
    try expect("(")
    var entries: [(key: String, value: USDTextValue, line: Int)] = []
    while !isPunctuation(")") {
      let token = try next()
      switch token.kind {
      case .string: continue  // a doc string
      case .punctuation where token.text == ";": continue
      case .name:
        var key = token.text
        // A deleting or reordering list op keeps its keyword (`delete references`): its items
        // are not added. The others add theirs.
        if ["delete", "reorder"].contains(key) {
          key += " " + (try next().text)
        } else if Self.listOperations.contains(key) || key == "dictionary" || key == "string" {
          key = try next().text
        }
        try expect("=")
        // `symmetryFunction =` may name no function (usd-core's grammar allows it): then a `)` or
        // the next `key =` follows.
        if key == "symmetryFunction",
          isPunctuation(")") || peek?.kind == .name && at + 1 < tokens.count && tokens[at + 1].text == "="
        {
          continue
        }
        entries.append((key, try value(), token.line))
        // A lone reference or payload may carry its layer offset.
        if layerOffsets, ["references", "payload", "delete references", "delete payload"].contains(key),
          let shift = try layerOffset(after: entries.last?.value)
        {
          entries[entries.count - 1].value = .shifted(entries[entries.count - 1].value, shift)
        }
      default: throw fail("unexpected '\(token.text.quotedForMessage)' in metadata")
      }
    }
    at += 1
    return entries
  }

  /// One value: a number, string, asset (with a prim path after it, a reference), path,
  /// tuple, list, time samples or dictionary, or a bare word; a value's own metadata skipped.
  mutating func value() throws(USDError) -> USDTextValue {
    try enter("values")
    defer { nesting -= 1 }
    let token = try next()
    switch token.kind {
    case .number:
      guard let x = Double(token.text) else { throw fail("'\(token.text.quotedForMessage)' is not a number") }
      return .number(x)
    case .string: return .string(token.text)
    case .path: return .path(token.text)
    case .asset:
      if peek?.kind == .path { return .reference(file: token.text, prim: try next().text) }
      return .asset(token.text)
    case .name:
      switch token.text {
      case "inf": return .number(.infinity)
      case "nan": return .number(.nan)
      default: return .word(token.text)
      }
    case .punctuation:
      switch token.text {
      case "(": return .tuple(try items(closing: ")"))
      case "[": return .list(try items(closing: "]"))
      case "{": return try braces()
      default:
        at -= 1
        throw unexpected("a value")
      }
    }
  }

  /// A reference's or sublayer's layer offset after `value` (`@a.usda@</A> (offset = 5; scale =
  /// 2)`, or an internal reference's `</A> (offset = 5)`), read past; nil where none follows (or
  /// `value` is not an asset, reference or path); one USD does not apply is named in a warning
  /// and none is applied (``USDLayerOffset/applicable(for:in:at:notes:)``).
  mutating func layerOffset(after value: USDTextValue?) throws(USDError) -> USDLayerOffset? {
    let file: String
    switch value {
    case .reference(let f, _)?, .asset(let f)?: file = f
    case .path?: file = ""
    default: return nil
    }
    guard isPunctuation("(") else { return nil }
    let line = peek?.line ?? 0
    var shift = USDLayerOffset.identity
    for (key, number, _) in try metadata() {
      if key == "offset", case .number(let x) = number { shift.offset = x }
      if key == "scale", case .number(let x) = number { shift.scale = x }
    }
    return shift.applicable(for: file, in: layer.path, at: "line \(line)", notes: &layer.notes)
  }

  /// Comma-separated values up to `closing` (a trailing comma allowed); an asset's or
  /// reference's own layer offset (``layerOffset(after:)``) kept with it (``USDTextValue/shifted``).
  private mutating func items(closing: String) throws(USDError) -> [USDTextValue] {
    var out: [USDTextValue] = []
    while !isPunctuation(closing) {
      out.append(try value())
      if let shift = try layerOffset(after: out.last) {
        out[out.count - 1] = .shifted(out[out.count - 1], shift)
      }
      if isPunctuation(",") {
        at += 1
      } else if !isPunctuation(closing) {
        throw unexpected("',' or '\(closing)'")
      }
    }
    at += 1
    return out
  }

  /// `{ 0: value, 10: value }` (time samples) or a dictionary, skipped with its braces.
  private mutating func braces() throws(USDError) -> USDTextValue {
    if peek?.kind == .number, at + 1 < tokens.count, tokens[at + 1].text == ":" {
      var samples: [(time: Double, value: USDTextValue)] = []
      while !isPunctuation("}") {
        guard case .number(let time) = try value() else { throw fail("a time sample without a time") }
        try expect(":")
        samples.append((time, try value()))
        if isPunctuation(",") { at += 1 }
      }
      at += 1
      // In time order; of samples at one time, the last written counts, as in USD.
      var ordered: [(time: Double, value: USDTextValue)] = []
      for sample in samples.enumerated().sorted(by: {
        ($0.element.time, $0.offset) < ($1.element.time, $1.offset)
      }) {
        if ordered.last?.time == sample.element.time { ordered.removeLast() }
        ordered.append(sample.element)
      }
      return .timeSamples(times: ordered.map(\.time), values: ordered.map(\.value))
    }
    let start = at
    do throws(USDError) {
      return .dictionary(try dictionaryEntries())
    } catch {
      // Metadata ARScene does not use may hold what it does not parse: read past it whole.
      at = start
      var depth = 1
      while depth > 0 {
        let token = try next()
        if token.kind == .punctuation && token.text == "{" { depth += 1 }
        if token.kind == .punctuation && token.text == "}" { depth -= 1 }
      }
      return .dictionary([])
    }
  }

  /// A dictionary's `type[[]] key = value` entries up to its closing brace (past it); the key a
  /// name or a quoted string.
  private mutating func dictionaryEntries() throws(USDError) -> [(key: String, value: USDTextValue)] {
    var entries: [(key: String, value: USDTextValue)] = []
    while !isPunctuation("}") {
      guard try next().kind == .name else { throw unexpected("a dictionary entry's type") }
      if isPunctuation("[") {
        at += 1
        try expect("]")
      }
      let key = try next()
      guard key.kind == .name || key.kind == .string else { throw unexpected("a dictionary key") }
      try expect("=")
      entries.append((key.text, try value()))
      if isPunctuation(";") { at += 1 }
    }
    at += 1
    return entries
  }
}
