import CVectorKernels

/// The values of a crate's fields that ARScene uses, decoded from their 64-bit representations
/// (type, array/inlined/compressed bits, a 48-bit payload: the value itself or its offset).
enum USDValue {
  case token(String)
  case tokens([String])
  case double(Double)
  case ints([Int64])
  /// Vectors (points, normals, colours, an extent): a float array as the file's floats.
  case vectors(Vector3Array)
  case vector(SIMD3<Double>)
  case texcoords([SIMD2<Double>])
  case quaternion(SIMD4<Double>)
  /// Row-major, as USD writes matrices (row vectors: a point is p·M).
  case matrix([Double])
  /// A path list operation's explicit, added, prepended and appended paths (a relationship's
  /// targets).
  case paths([String])
  /// A reference (or payload) list operation's explicit, added, prepended and appended items:
  /// the layer's asset path (empty for this layer), the prim (empty for its default prim) and
  /// the layer offset as written; and its deleted items, which weaker layers' lists lose.
  case references([USDArc], deleted: [USDArc])
  /// A layer's sublayers' offsets (`subLayerOffsets`), in the order of its `subLayers`.
  case layerOffsets([USDLayerOffset])
  /// An array of numbers (`float[]`: a skinned mesh's joint weights).
  case doubles([Double])
  /// An array of quaternions, [i, j, k, real] each (a skeleton animation's rotations).
  case quaternions([SIMD4<Double>])
  /// An array of 4×4 matrices, each row-major (a skeleton's bind and rest transforms).
  case matrices([[Double]])
  /// A prim's variant selections: each variant set's selected variant.
  case selections([String: String])
  /// A token list op (a prim's `apiSchemas`): the tokens it adds (explicit, added, prepended
  /// and appended, in that order) and those it deletes.
  case tokenList(added: [String], deleted: [String])
  /// An attribute's time samples: time codes, increasing, and the value at each.
  case timeSamples(times: [Double], values: [USDValue])

  /// A `TimeSamples` value at `r`: a jump (from where it is read) to the times' rep, the rep,
  /// a jump past the values' own data, their count and a rep each (OpenUSD's crateFile.cpp).
  /// The times must be a `DoubleVector`, increasing, one a value; a value of a type ARScene does
  /// not read makes the attribute's samples unread (nil), never half read.
  static func timeSamples(_ r: inout USDByteReader, in crate: USDCrate, at place: String) throws(USDError)
    -> USDValue?
  {
    func jump() throws(USDError) {
      let from = r.at
      let offset = Int64(bitPattern: try r.uint64())
      guard offset >= 8, offset <= Int64(crate.bytes.count - from) else {
        throw r.fail("time samples jump \(offset) bytes from byte \(from)")
      }
      r.at = from + Int(offset)
    }
    try jump()
    let timesRep = try r.uint64()
    try jump()
    let count = try r.uint64()
    guard count <= UInt64(crate.bytes.count - r.at) / 8 else {
      throw r.fail("\(count) time samples run past the file")
    }
    var reps: [UInt64] = []
    for _ in 0..<count { reps.append(try r.uint64()) }
    guard (timesRep >> 48) & 0xFF == 48, timesRep & (1 << 62) == 0 else {
      throw r.fail("time samples whose times are not a DoubleVector")
    }
    var t = USDByteReader(bytes: crate.bytes, path: crate.path, place: place)
    t.at = Int(timesRep & ((1 << 48) - 1))
    let n = try t.uint64()
    guard n == count else { throw t.fail("\(n) sample times for \(count) values") }
    var times: [Double] = []
    for _ in 0..<n { times.append(Double(bitPattern: try t.uint64())) }
    guard times.allSatisfy(\.isFinite), zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }) else {
      throw t.fail("sample times that are not finite and increasing")
    }
    var values: [USDValue] = []
    for rep in reps {
      guard (rep >> 48) & 0xFF != 46 else { throw r.fail("time samples inside time samples") }
      guard let value = try decode(rep, in: crate, at: place) else { return nil }
      values.append(value)
    }
    return .timeSamples(times: times, values: values)
  }

  /// The value `rep` holds in `crate`, or nil for a type ARScene does not read.
  static func decode(_ rep: UInt64, in crate: USDCrate, at place: String) throws(USDError) -> USDValue? {
    let type = Int((rep >> 48) & 0xFF)
    let isArray = rep & (1 << 63) != 0, inlined = rep & (1 << 62) != 0, compressed = rep & (1 << 61) != 0
    let payload = rep & ((1 << 48) - 1)
    var r = USDByteReader(bytes: crate.bytes, path: crate.path, place: place)
    r.at = Int(payload)
    let wideCounts = crate.version.minor >= 7
    func arrayCount() throws(USDError) -> Int {
      // An empty array is written as no data at all: its rep points at byte 0 (the header).
      guard payload != 0 else { return 0 }
      let n = wideCounts ? try r.uint64() : UInt64(try r.uint32())
      guard n <= 1 << 28, n <= crate.bytes.count else { throw r.fail("an array of \(n) elements") }
      return Int(n)
    }
    func token(_ index: UInt64) throws(USDError) -> String {
      guard index < crate.tokens.count else { throw r.fail("a value names no token") }
      return crate.tokens[Int(index)]
    }
    func inlinedBytes(_ n: Int) -> [Double] {
      (0..<n).map { Double(Int8(bitPattern: UInt8(truncatingIfNeeded: payload >> (8 * UInt64($0))))) }
    }
    // A floating-point type's width in bytes: double 8, float 4, half 2 (`PrecisionHalf` ops).
    let width =
      switch type {
      case 9, 15, 16, 19, 23, 27: 8
      case 7, 18, 21, 25, 29: 2
      default: 4
      }
    func floats(_ n: Int, width: Int) throws(USDError) -> [Double] { try reals(&r, count: n, width: width) }
    switch (type, isArray) {
    case (7, true), (8, true), (9, true), (15, true), (16, true), (17, true), (18, true):
      return try realArray(&r, type: type, count: try arrayCount(), width: width, compressed: compressed)
    case (7, false): return .double(Self.half(UInt16(truncatingIfNeeded: payload)))
    // Tokens, and asset paths (stored as the token of their text).
    case (11, false), (12, false): return .token(try token(inlined ? payload : UInt64(try r.uint32())))
    case (1, false), (3, false), (10, false), (57, false):
      return try scalar(type: type, payload: payload, inlined: inlined, &r, in: crate)
    case (11, true):
      let n = try arrayCount()
      var out: [String] = []
      for _ in 0..<n { out.append(try token(UInt64(try r.uint32()))) }
      return .tokens(out)
    case (46, false): return try timeSamples(&r, in: crate, at: place)
    case (50, false): return .tokens(try stringVector(&r, in: crate))
    case (41, false):
      let n = try r.count()
      var out: [String] = []
      for _ in 0..<n { out.append(try token(UInt64(try r.uint32()))) }
      return .tokens(out)
    case (9, false):
      return .double(
        inlined
          ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: payload))) : try floats(1, width: 8)[0])
    case (8, false): return .double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: payload))))
    case (3, true), (5, true):  // int and int64 arrays (a point instancer's ids)
      let n = try arrayCount(), wide = type == 5
      if compressed && n >= 16 { return .ints(try r.compressedInts(n, wide: wide)) }
      var out: [Int64] = []
      for _ in 0..<n { out.append(wide ? try r.int64() : Int64(Int32(bitPattern: try r.uint32()))) }
      return .ints(out)
    case (24, true), (23, true), (25, true):
      return .vectors(try vectors(&r, count: try arrayCount(), width: width))
    case (27, false), (28, false), (29, false):  // a single Vec4d, Vec4f or Vec4h: its four numbers
      return .doubles(inlined ? inlinedBytes(4) : try floats(4, width: width))
    case (24, false), (23, false), (25, false):
      let v = inlined ? inlinedBytes(3) : try floats(3, width: width)
      return .vector(SIMD3(v[0], v[1], v[2]))
    case (20, false), (19, false), (21, false):  // a single 2-vector (a texture transform's scale)
      let v = inlined ? inlinedBytes(2) : try floats(2, width: width)
      return .texcoords([SIMD2(v[0], v[1])])
    case (20, true), (19, true), (21, true):
      let n = try arrayCount()
      let values = try floats(2 * n, width: width)
      return .texcoords((0..<n).map { SIMD2(values[2 * $0], values[2 * $0 + 1]) })
    case (17, false), (16, false), (18, false):
      let v = try floats(4, width: width)
      return .quaternion(SIMD4(v[0], v[1], v[2], v[3]))
    case (32, false), (34, false), (35, false), (55, false), (47, false):
      return try listOp(type, &r, in: crate)
    case (49, false):  // LayerOffsetVector
      let n = try r.count()
      guard n <= 1 << 16 else { throw r.fail("\(n) layer offsets") }
      var out: [USDLayerOffset] = []
      for _ in 0..<n { out.append(try layerOffset(&r)) }
      return .layerOffsets(out)
    case (45, false): return .selections(try variantSelections(&r, in: crate))
    case (15, false):
      if inlined {
        let d = inlinedBytes(4)
        return .matrix((0..<16).map { $0 % 5 == 0 ? d[$0 / 5] : 0 })
      }
      return .matrix(try floats(16, width: 8))
    default: return nil
    }
  }

  /// A lone bool or int (type 1, 3), inlined, as a number (a shader's `no_flip_v`, a
  /// texture-coordinate node's `index`); a string or a path expression (a collection's
  /// `membershipExpression`; type 10, 57) as its text, through the strings section (RealityKit's
  /// wrap modes). Nil for another type, or a bool or int not inlined (which crates never write).
  private static func scalar(
    type: Int, payload: UInt64, inlined: Bool, _ r: inout USDByteReader, in crate: USDCrate
  ) throws(USDError) -> USDValue? {
    switch type {
    case 1: return inlined ? .double(payload & 0xFF == 0 ? 0 : 1) : nil
    case 3: return inlined ? .double(Double(Int32(truncatingIfNeeded: payload))) : nil
    default:
      guard let text = crate.string(Int(inlined ? payload : UInt64(try r.uint32()))) else {
        throw r.fail("a value names no string")
      }
      return .token(text)
    }
  }

  /// `n` floating-point numbers of `width` bytes (8, 4 or 2) at `r`, read in one pass over the
  /// bytes (a mesh's points are millions of them).
  static func reals(_ r: inout USDByteReader, count n: Int, width: Int) throws(USDError) -> [Double] {
    guard r.at >= 0, r.at <= r.bytes.count, n <= (r.bytes.count - r.at) / width else {
      throw r.fail("\(n) numbers run past the file")
    }
    let start = r.at
    r.at += n * width
    return r.bytes.withUnsafeBytes { raw in
      let base = raw.baseAddress! + start
      switch width {
      case 8:
        return (0..<n).map {
          Double(
            bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self)))
        }
      case 4:
        return (0..<n).map {
          Double(
            Float(
              bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))))
        }
      default:
        return (0..<n).map {
          Self.half(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self)))
        }
      }
    }
  }

  /// `n` vectors of three floating-point numbers of `width` bytes at `r`: floats left where they
  /// lie in the file (a mesh's points are millions of numbers), other widths made in one pass.
  static func vectors(_ r: inout USDByteReader, count n: Int, width: Int) throws(USDError) -> Vector3Array {
    guard r.at >= 0, r.at <= r.bytes.count, n <= (r.bytes.count - r.at) / (3 * width) else {
      throw r.fail("\(n) vectors run past the file")
    }
    let start = r.at
    r.at += 3 * n * width
    #if _endian(little)
      // Floats, the common width (points, normals, colours): left in the file's bytes.
      if width == 4 { return Vector3Array(floats: r.bytes, offset: start, count: n) }
    #endif
    return r.bytes.withUnsafeBytes { raw in
      let base = raw.baseAddress! + start
      /// Number `k` of the array.
      func number(_ k: Int) -> Double {
        switch width {
        case 8:
          Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8 * k, as: UInt64.self)))
        case 4:
          Double(
            Float(
              bitPattern: UInt32(littleEndian: base.loadUnaligned(fromByteOffset: 4 * k, as: UInt32.self))))
        default: Self.half(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self)))
        }
      }
      return Vector3Array(
        [SIMD3<Double>](unsafeUninitializedCapacity: n) { out, made in
          for i in 0..<n { out[i] = SIMD3(number(3 * i), number(3 * i + 1), number(3 * i + 2)) }
          made = n
        })
    }
  }

  /// An array of `n` numbers (half, float, double), quaternions or 4×4 matrices at `r`. Arrays of
  /// 16 numbers or more may be stored compressed: a code, `i` for whole numbers kept as
  /// compressed integers, `t` for a table of distinct values and each element's compressed index.
  private static func realArray(
    _ r: inout USDByteReader, type: Int, count n: Int, width: Int, compressed: Bool
  ) throws(USDError) -> USDValue {
    switch type {
    case 16, 17, 18:
      let v = try reals(&r, count: 4 * n, width: width)
      return .quaternions((0..<n).map { SIMD4(v[4 * $0], v[4 * $0 + 1], v[4 * $0 + 2], v[4 * $0 + 3]) })
    case 15:
      let v = try reals(&r, count: 16 * n, width: 8)
      return .matrices((0..<n).map { Array(v[16 * $0..<16 * $0 + 16]) })
    default:
      guard compressed && n >= 16 else { return .doubles(try reals(&r, count: n, width: width)) }
      switch try r.bytes(1).first! {
      case UInt8(ascii: "i"): return .doubles(try r.compressedInts(n).map { Double($0) })
      case UInt8(ascii: "t"):
        let tableSize = Int(try r.uint32())
        let table = try reals(&r, count: tableSize, width: width)
        let indices = try r.compressedInts(n)
        guard indices.allSatisfy({ $0 >= 0 && $0 < tableSize }) else {
          throw r.fail("a compressed array's index past its table of \(tableSize)")
        }
        return .doubles(indices.map { table[Int($0)] })
      case let code: throw r.fail("a compressed number array of code \(code)")
      }
    }
  }

  /// USD's numeric scalar types other than `double`.
  static let nonDoubleScalarTypes: Set<String> = ["float", "half", "int", "uint", "int64", "uint64", "uchar"]

  /// Whether value type `type` (`half3[]`, `point3h`, `quath`) holds half-precision numbers.
  static func isHalf(_ type: String) -> Bool {
    // On the UTF-8 bytes (every attribute's type is asked): String's Character-wise prefix and
    // suffix tests were 5% of a 100-part USDZ's reading thread.
    var base = type.utf8[...]
    if base.count >= 2, base.suffix(2).elementsEqual("[]".utf8) { base = base.dropLast(2) }
    let digit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
    return base.starts(with: "half".utf8) || base.elementsEqual("quath".utf8)
      || base.elementsEqual("Quath".utf8)
      || base.last == UInt8(ascii: "h") && base.dropLast().last.map(digit) == true
  }

  /// `x` rounded to the nearest half-precision number (ties to even).
  static func roundedToHalf(_ x: Double) -> Double {
    guard x.isFinite, x != 0 else { return x }
    // The spacing of halves near x: 2^(e − 10), and 2^−24 among the subnormals.
    let exponent = Swift.max(Int(x.magnitude.exponent), -14)
    let spacing = Double(sign: .plus, exponent: exponent - 10, significand: 1)
    let rounded = (x / spacing).rounded(.toNearestOrEven) * spacing
    return rounded.magnitude > 65504 ? Double(sign: x.sign, exponent: 1024, significand: 1) : rounded
  }

  /// The value with its numbers rounded to half precision.
  var roundedToHalf: USDValue {
    let h = Self.roundedToHalf
    switch self {
    case .double(let x): return .double(h(x))
    case .doubles(let xs): return .doubles(xs.map(h))
    case .vector(let v): return .vector(SIMD3(h(v.x), h(v.y), h(v.z)))
    case .vectors(let vs): return .vectors(Vector3Array(vs.map { SIMD3(h($0.x), h($0.y), h($0.z)) }))
    case .texcoords(let vs): return .texcoords(vs.map { SIMD2(h($0.x), h($0.y)) })
    case .quaternion(let q): return .quaternion(SIMD4(h(q.x), h(q.y), h(q.z), h(q.w)))
    case .quaternions(let qs): return .quaternions(qs.map { SIMD4(h($0.x), h($0.y), h($0.z), h($0.w)) })
    default: return self
    }
  }

  /// An IEEE 754 half-precision number's value (built by hand: `Float16` is missing on Intel Macs).
  static func half(_ bits: UInt16) -> Double {
    let sign: Double = bits & 0x8000 == 0 ? 1 : -1
    let exponent = Int(bits >> 10 & 0x1F), fraction = Double(bits & 0x3FF)
    switch exponent {
    case 0: return sign * fraction * 0x1p-24
    case 31: return fraction == 0 ? sign * .infinity : .nan
    default:
      return sign * (1 + fraction / 1024) * Double(sign: .plus, exponent: exponent - 15, significand: 1)
    }
  }

  /// A path list op at `r`: its explicit, added, prepended and appended paths (then deleted and
  /// ordered ones, which add nothing).
  private static func pathList(_ r: inout USDByteReader, in crate: USDCrate) throws(USDError) -> [String] {
    let header = try r.bytes(1).first!
    var out: [String] = []
    for bit in [1 << 1, 1 << 2, 1 << 5, 1 << 6] where Int(header) & bit != 0 {
      let n = try r.count()
      for _ in 0..<n {
        let index = Int(try r.uint32())
        guard crate.paths.indices.contains(index) else { throw r.fail("a target names no path") }
        out.append(crate.paths[index])
      }
    }
    return out
  }

  /// A list op (tokens 32, paths 34, references 35, payloads 55) or a lone payload (47, what
  /// crates before payload list ops hold) at `r`.
  private static func listOp(_ type: Int, _ r: inout USDByteReader, in crate: USDCrate) throws(USDError)
    -> USDValue
  {
    switch type {
    case 32:
      let (added, deleted) = try tokenList(&r, in: crate)
      return .tokenList(added: added, deleted: deleted)
    case 34: return .paths(try pathList(&r, in: crate))
    case 47:
      return .references([try reference(&r, in: crate, withOffset: crate.version >= (0, 8, 0))], deleted: [])
    default:
      let (items, deleted) = try referenceList(&r, in: crate, payloads: type == 55)
      return .references(items, deleted: deleted)
    }
  }

  /// A `TokenListOp` at `r`: its header byte, then each list it holds (a count, then each token's
  /// index), explicit, added, prepended, appended, deleted, ordered, as usd-core writes them.
  /// The tokens it adds (all but the deleted and ordered), and those it deletes.
  private static func tokenList(_ r: inout USDByteReader, in crate: USDCrate) throws(USDError) -> (
    added: [String], deleted: [String]
  ) {
    let header = Int(try r.bytes(1).first!)
    var added: [String] = [], deleted: [String] = []
    for bit in [1 << 1, 1 << 2, 1 << 5, 1 << 6, 1 << 3] where header & bit != 0 {
      let n = try r.count()
      guard n <= 1 << 16 else { throw r.fail("\(n) tokens in a list op") }
      for _ in 0..<n {
        let index = Int(try r.uint32())
        guard crate.tokens.indices.contains(index) else { throw r.fail("a list op names no token") }
        if bit == 1 << 3 { deleted.append(crate.tokens[index]) } else { added.append(crate.tokens[index]) }
      }
    }
    return (added, deleted)
  }

  /// A `VariantSelectionMap` at `r`: a count, then each set's and its variant's string.
  private static func variantSelections(_ r: inout USDByteReader, in crate: USDCrate) throws(USDError)
    -> [String: String]
  {
    let n = try r.count()
    guard n <= 1 << 12 else { throw r.fail("\(n) variant selections") }
    var map: [String: String] = [:]
    for _ in 0..<n {
      let set = Int(try r.uint32()), variant = Int(try r.uint32())
      guard let set = crate.string(set), let variant = crate.string(variant) else {
        throw r.fail("a variant selection names no string")
      }
      map[set] = variant
    }
    return map
  }

  /// A `StringVector` at `r` (a layer's subLayers): a count, then each string's index.
  private static func stringVector(_ r: inout USDByteReader, in crate: USDCrate) throws(USDError) -> [String]
  {
    let n = try r.count()
    var out: [String] = []
    for _ in 0..<n {
      guard let string = crate.string(Int(try r.uint32())) else { throw r.fail("a value names no string") }
      out.append(string)
    }
    return out
  }

  /// A reference or payload list op at `r`: its header's lists, each a count and the items
  /// (``reference(_:in:withOffset:)``), in the order the crate writes them (explicit, added,
  /// prepended, appended, then deleted); the deleted ones apart. A reference carries a layer
  /// offset and custom data; a payload a layer offset from crate 0.8 on.
  private static func referenceList(_ r: inout USDByteReader, in crate: USDCrate, payloads: Bool)
    throws(USDError) -> (items: [USDArc], deleted: [USDArc])
  {
    let header = try r.bytes(1).first!
    var out: [USDArc] = [], deleted: [USDArc] = []
    let withOffset = !payloads || crate.version >= (0, 8, 0)
    for bit in [1 << 1, 1 << 2, 1 << 5, 1 << 6, 1 << 3] where Int(header) & bit != 0 {
      let n = try r.count()
      guard n <= 1 << 16 else { throw r.fail("\(n) references") }
      for _ in 0..<n {
        let arc = try reference(&r, in: crate, withOffset: withOffset)
        if bit == 1 << 3 { deleted.append(arc) } else { out.append(arc) }
        if !payloads {
          let entries = try r.count()
          guard entries == 0 else { throw r.fail("a reference with custom data (not read)") }
        }
      }
    }
    return (out, deleted)
  }

  /// One reference or payload at `r`: an asset path's string, a prim path (the default prim's
  /// when none), and with `withOffset` a layer offset.
  private static func reference(_ r: inout USDByteReader, in crate: USDCrate, withOffset: Bool)
    throws(USDError) -> USDArc
  {
    let string = Int(try r.uint32()), path = Int(try r.uint32())
    guard let file = crate.string(string), crate.paths.indices.contains(path) || path == -1 else {
      throw r.fail("a reference names no string or path")
    }
    let prim = crate.paths.indices.contains(path) ? crate.paths[path] : ""
    return USDArc(
      file: file, prim: prim == "/" ? "" : prim, timing: withOffset ? try layerOffset(&r) : .identity)
  }

  /// A layer offset at `r`: offset, then scale, two doubles.
  private static func layerOffset(_ r: inout USDByteReader) throws(USDError) -> USDLayerOffset {
    let offset = Double(bitPattern: try r.uint64()), scale = Double(bitPattern: try r.uint64())
    return USDLayerOffset(offset: offset, scale: scale)
  }
}
