/// A value as USD's text format writes it, before its declared type gives it a meaning.
enum USDTextValue {
  case number(Double)
  case string(String)
  case asset(String)
  case path(String)
  /// An asset path followed by a prim path: a reference's `@file@</Prim>`.
  case reference(file: String, prim: String)
  /// `( … )`: a vector, quaternion or matrix row.
  case tuple([USDTextValue])
  /// `[ … ]`.
  case list([USDTextValue])
  /// `{ time: value, … }`, in time order: times and values apart.
  case timeSamples(times: [Double], values: [USDTextValue])
  /// A bare word: `None`, `true`, `false`.
  case word(String)
  /// A dictionary's entries (`string shape = "sphere"`) in order, by key; empty for one whose
  /// entries are not plain `type key = value` lines (read past, unused).
  case dictionary([(key: String, value: USDTextValue)])
  /// An asset, reference or prim path followed by its layer offset (`@a.usda@ (offset = 2;
  /// scale = 0.5)`), as sublayers, references and payloads carry one.
  indirect case shifted(USDTextValue, USDLayerOffset)

  /// The value without a layer offset after it.
  var unshifted: USDTextValue {
    if case .shifted(let value, _) = self { value } else { self }
  }

  /// The numbers of a number, a tuple of numbers, or a tuple of tuples (a matrix), in order.
  var numbers: [Double]? {
    switch self {
    case .number(let x): [x]
    case .tuple(let items):
      items.reduce(into: [Double]?([])) { out, item in
        if let xs = item.numbers { out?.append(contentsOf: xs) } else { out = nil }
      }
    default: nil
    }
  }

  /// The value as the stage reader keeps a property of `type` (`point3f[]`, `quatf`, `token`…),
  /// or nil for a type it does not read.
  func converted(to type: String) -> USDValue? {
    let isArray = type.hasSuffix("[]")
    let base = isArray ? String(type.dropLast(2)) : type
    let items: [USDTextValue]
    if isArray {
      guard case .list(let list) = self else { return nil }
      items = list.map(\.unshifted)
    } else {
      items = [unshifted]
    }
    func strings() -> [String]? {
      items.reduce(into: [String]?([])) { out, item in
        switch item {
        case .string(let s), .asset(let s): out?.append(s)
        default: out = nil
        }
      }
    }
    // A lone bool, as the other scalars a number: 1 for `1` or `true`, 0 for `0` or `false`.
    if base == "bool", !isArray {
      switch self {
      case .number(let x) where x == 0 || x == 1: return .double(x)
      case .word("true"): return .double(1)
      case .word("false"): return .double(0)
      default: return nil
      }
    }
    switch Self.kind(of: base) {
    case .integer:
      let values = items.compactMap { $0.numbers?.first }
      guard values.count == items.count, values.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e15 }) else {
        return nil
      }
      return isArray ? .ints(values.map { Int64($0) }) : .double(values[0])
    case .real:
      let values = items.compactMap { $0.numbers }.filter { $0.count == 1 }.map { $0[0] }
      guard values.count == items.count, !values.isEmpty || isArray else { return nil }
      return isArray ? .doubles(values) : .double(values[0])
    case .vector3:
      let rows = items.compactMap { $0.numbers }.filter { $0.count == 3 }.map { SIMD3($0[0], $0[1], $0[2]) }
      guard rows.count == items.count, !rows.isEmpty || isArray else { return nil }
      return isArray ? .vectors(Vector3Array(rows)) : .vector(rows[0])
    case .vector2:
      // A single one (a texture transform's scale) as an array of one.
      let rows = items.compactMap { $0.numbers }.filter { $0.count == 2 }.map { SIMD2($0[0], $0[1]) }
      guard rows.count == items.count, isArray || rows.count == 1 else { return nil }
      return .texcoords(rows)
    case .quaternion:
      // The text format writes the real part first: (w, x, y, z).
      let rows = items.compactMap { $0.numbers }.filter { $0.count == 4 }.map { q in
        SIMD4(q[1], q[2], q[3], q[0])
      }
      guard rows.count == items.count, !rows.isEmpty || isArray else { return nil }
      return isArray ? .quaternions(rows) : .quaternion(rows[0])
    case .vector4:
      // A single 4-vector (a texture's `scale` or `bias`) as its four numbers, in order.
      guard !isArray, items.count == 1, let numbers = items[0].numbers, numbers.count == 4 else { return nil }
      return .doubles(numbers)
    case .matrix:
      let rows = items.compactMap { $0.numbers }.filter { $0.count == 16 }
      guard rows.count == items.count, !rows.isEmpty || isArray else { return nil }
      return isArray ? .matrices(rows) : .matrix(rows[0])
    case .text:
      guard let texts = strings() else { return nil }
      return isArray ? .tokens(texts) : texts.first.map { .token($0) }
    case nil: return nil
    }
  }

  private enum Kind { case integer, real, vector3, vector2, vector4, quaternion, matrix, text }

  private static func kind(of base: String) -> Kind? {
    switch base {
    case "int", "uint", "int64", "uint64", "uchar": .integer
    case "float", "double", "half", "timecode": .real
    case "float3", "double3", "half3", "point3f", "point3d", "point3h", "normal3f", "normal3d", "normal3h",
      "vector3f", "vector3d", "vector3h", "color3f", "color3d", "color3h":
      .vector3
    case "float2", "double2", "half2", "texCoord2f", "texCoord2d", "texCoord2h": .vector2
    case "quatf", "quatd", "quath": .quaternion
    case "float4", "double4", "half4", "color4f", "color4d", "color4h": .vector4
    case "matrix4d": .matrix
    case "token", "string", "asset", "pathExpression": .text
    default: legacyKind(of: base)
    }
  }

  /// Sdf's legacy type names, which usd-core still reads (Pixar's own test scenes write
  /// `Vec3f xformOp:translate`, `custom Matrix4d xformOp:transform`).
  private static func legacyKind(of base: String) -> Kind? {
    switch base {
    case "PointIndex", "EdgeIndex", "FaceIndex": .integer
    case "Vec3h", "Vec3f", "Vec3d", "Point", "PointFloat", "Normal", "NormalFloat", "Vector", "VectorFloat",
      "Color",
      "ColorFloat":
      .vector3
    case "Vec2h", "Vec2f", "Vec2d": .vector2
    case "Vec4h", "Vec4f", "Vec4d": .vector4
    case "Quath", "Quatf", "Quatd": .quaternion
    case "Matrix4d", "Frame", "Transform": .matrix
    default: nil
    }
  }
}
