import ARMath
import RealModule

/// USD's transform stack (`UsdGeomXformable`): a prim's `xformOpOrder` lists its ops, the first
/// outermost, each `xformOp:<kind>[:<suffix>]` with its value (any precision, read as double),
/// optionally `!invert!`ed (the inverse of a named op, as pivots use), and
/// `!resetXformStack!` first to ignore the ancestors' transforms.
///
/// Kinds: `translate`, `scale` (a vector, or one number for all axes), `rotateX`, `rotateY`,
/// `rotateZ` (degrees), `rotateXYZ` and the other five orders (degrees; `rotateXYZ` turns about
/// x first), `orient` (a quaternion), `transform` (a 4×4 matrix). An op of another kind, or one
/// whose value is of the wrong type, is an error naming the prim and the op. An op listed with
/// no value (no attribute, or one declared without a value) is the identity, as usd-core takes
/// it; the stage's reader names every such op in a warning.
enum USDTransformOps {
  /// The marker that ignores the parent's transform.
  static let resetStack = "!resetXformStack!"

  /// The local transform `order` makes from the prim's `values` (keyed by property name), and
  /// whether it resets the stack.
  static func local(
    _ order: [String], of prim: String, values: (String) -> USDValue?, path: String
  ) throws(USDError) -> (matrix: Matrix4<Double>, resets: Bool) {
    var matrix = Matrix4<Double>.identity
    var resets = false
    for (i, entry) in order.enumerated() {
      if entry == resetStack {
        guard i == 0 else {
          throw USDError(
            path: path, place: prim + ".xformOpOrder", reason: "\(resetStack) is not the first entry")
        }
        resets = true
        continue
      }
      let inverted = entry.hasPrefix("!invert!")
      let name = opName(of: entry) ?? entry
      let place = prim + "." + name
      guard let value = values(name) else { continue }
      var op = try Self.matrix(name, value, place: place, path: path)
      if inverted {
        guard let inverse = op.inverse else {
          throw USDError(path: path, place: place, reason: "!invert! of an op that has no inverse")
        }
        op = inverse
      }
      matrix = matrix * op
    }
    return (matrix, resets)
  }

  /// The op an `xformOpOrder` entry names (`!invert!xformOp:translate:pivot` names
  /// `xformOp:translate:pivot`); nil for ``resetStack``.
  static func opName(of entry: String) -> String? {
    guard entry != resetStack else { return nil }
    return entry.hasPrefix("!invert!") ? String(entry.dropFirst("!invert!".count)) : entry
  }

  /// The value that makes op `name` (`xformOp:<kind>[:<suffix>]`) the identity; nil for a kind
  /// this reader does not know (which ``matrix(_:_:place:path:)`` then names).
  static func identity(ofOp name: String) -> USDValue? {
    let parts = name.split(separator: ":")
    guard parts.count >= 2, parts[0] == "xformOp" else { return nil }
    switch parts[1] {
    case "translate": return .vector(.zero)
    case "scale": return .vector(SIMD3(repeating: 1))
    case "rotateX", "rotateY", "rotateZ": return .double(0)
    case "rotateXYZ", "rotateXZY", "rotateYXZ", "rotateYZX", "rotateZXY", "rotateZYX": return .vector(.zero)
    case "orient": return .quaternion(SIMD4(0, 0, 0, 1))
    case "transform": return .matrix([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    default: return nil
    }
  }

  /// One op as a matrix for column vectors.
  static func matrix(_ name: String, _ value: USDValue, place: String, path: String) throws(USDError)
    -> Matrix4<Double>
  {
    let parts = name.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] == "xformOp" else {
      throw USDError(path: path, place: place, reason: "not an xformOp: property")
    }
    let kind = String(parts[1])
    func wrongValue() -> USDError {
      USDError(path: path, place: place, reason: "a value of the wrong type for \(kind)")
    }
    switch kind {
    case "transform":
      guard case .matrix(let m) = value, m.count == 16 else { throw wrongValue() }
      // USD's rows are our columns (it multiplies row vectors).
      return Matrix4(
        SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]), SIMD4(m[8], m[9], m[10], m[11]),
        SIMD4(m[12], m[13], m[14], m[15]))
    case "translate":
      guard case .vector(let t) = value else { throw wrongValue() }
      return .translation(t)
    case "scale":
      switch value {
      case .vector(let s): return .scale(s)
      case .double(let s): return .scale(SIMD3(repeating: s))
      default: throw wrongValue()
      }
    case "orient":
      guard case .quaternion(let q) = value else { throw wrongValue() }
      // A zero quaternion is no turn, as usd-core's GfRotation reads it (``orientation(_:)``).
      guard q.isFinite else {
        throw USDError(path: path, place: place, reason: "a quaternion that is not finite")
      }
      return Matrix4(linear: orientation(q), translation: .zero)
    case "rotateX", "rotateY", "rotateZ":
      guard case .double(let degrees) = value else { throw wrongValue() }
      return Matrix4(linear: rotation(about: kind.last!, degrees: degrees), translation: .zero)
    case "rotateXYZ", "rotateXZY", "rotateYXZ", "rotateYZX", "rotateZXY", "rotateZYX":
      guard case .vector(let d) = value else { throw wrongValue() }
      // The first axis named turns the point first: for column vectors, the rightmost factor.
      var linear = Matrix3<Double>.identity
      for axis in kind.dropFirst("rotate".count) {
        let degrees = axis == "X" ? d.x : axis == "Y" ? d.y : d.z
        linear = rotation(about: axis, degrees: degrees) * linear
      }
      return Matrix4(linear: linear, translation: .zero)
    default:
      throw USDError(
        path: path, place: place, reason: "an xformOp of kind '\(kind.prefix(40))', which is not read")
    }
  }

  /// The rotation USD makes of an orient op's quaternion `q` (x, y, z, w), as `GfRotation`
  /// makes it: about the direction of its imaginary part by twice the arccosine of its real
  /// part (the identity when the imaginary part vanishes). Not the quaternion's own matrix,
  /// normalised or not: the two differ where an exporter's quaternion is not quite unit, most
  /// for small turns (a glTF sample converted to USDZ, `w` 0.99997777 and `z` −0.0066837, 2·10⁻⁷
  /// from unit: its cube 3·10⁻⁵ m off usd-core's bounds).
  static func orientation(_ q: SIMD4<Double>) -> Matrix3<Double> {
    let imaginary = SIMD3(q.x, q.y, q.z), length = imaginary.length
    guard length > 1e-10 else { return .identity }
    let angle = 2 * Double.acos(Swift.min(Swift.max(q.w, -1), 1))
    return Quaternion<Double>(angle: .radians(angle), axis: imaginary / length).matrix
  }

  /// A rotation of `degrees` about the x, y or z axis.
  private static func rotation(about axis: Character, degrees: Double) -> Matrix3<Double> {
    let unit: SIMD3<Double> = axis == "X" ? [1, 0, 0] : axis == "Y" ? [0, 1, 0] : [0, 0, 1]
    return Quaternion<Double>(angle: .degrees(degrees), axis: unit).matrix
  }
}
