import ARMath
import RealModule

/// USD's implicit surfaces (`UsdGeomCube`, `Sphere`, `Cylinder`, `Cone`, `Capsule`, `Plane`,
/// and the two-radius `Cylinder_1` and `Capsule_1`) made meshes, from their attributes with the
/// schema's fallbacks: `size` 2 for a cube; `radius` 1 for a sphere, cylinder and cone, 0.5 for a
/// capsule; `radiusTop` and `radiusBottom` 1 for a `Cylinder_1`, 0.5 for a `Capsule_1`; `height`
/// 2 for the cylinders and the cone, 1 for the capsules' middle part; `width` and `length` 2 for
/// a plane; `axis` Z. Round
/// shapes are cut into as many segments around as keep every chord within the tolerance of the
/// true circle (a multiple of 4 from 8 to 1024, half as many from pole to pole), with a vertex on
/// each principal axis, so that their bounds are the schema's exactly; smooth shapes carry
/// smooth normals, facets flat ones.
enum USDImplicitShapes {
  /// The prim types made meshes here.
  static let types: Set<String> = [
    "Cube", "Sphere", "Cylinder", "Cone", "Capsule", "Plane", "Cylinder_1", "Capsule_1",
  ]
  /// The tolerance ARScene draws round shapes to unless told: 1 mm.
  static let defaultTolerance = 0.001

  /// Segments around a circle of `radius` whose chords stray at most `tolerance` from it
  /// (the sagitta r(1 − cos(π/n)) ≤ tolerance), a multiple of 4 from 8 to 1024.
  static func segments(radius: Double, tolerance: Double) -> Int {
    guard radius > 0, tolerance > 0, tolerance < radius else { return 8 }
    let n = Double.pi / Double.acos(1 - tolerance / radius)
    guard n.isFinite else { return 1024 }
    return min(1024, max(8, 4 * Int((min(n, 4096) / 4).rounded(.up))))
  }

  /// The mesh of implicit prim `type`, its attributes read through `number` and `token`, round
  /// parts within `tolerance` of the surface (in the shape's own units).
  static func mesh(
    _ type: String, number: (String) -> Double?, token: (String) -> String?, place: String, path: String,
    tolerance: Double = defaultTolerance
  ) throws(USDError) -> GLTFPrimitiveAttributes {
    func positive(_ name: String, _ fallback: Double) throws(USDError) -> Double {
      let value = number(name) ?? fallback
      guard value.isFinite, value >= 0 else {
        throw USDError(path: path, place: place + "." + name, reason: "\(value) is not a finite size ≥ 0")
      }
      return value
    }
    let axis = token("axis") ?? "Z"
    guard ["X", "Y", "Z"].contains(axis) else {
      throw USDError(path: path, place: place + ".axis", reason: "'\(axis.prefix(20))' is not X, Y or Z")
    }
    var shape: GLTFPrimitiveAttributes
    switch type {
    case "Cube": return box(half: SIMD3(repeating: try positive("size", 2) / 2))
    case "Sphere":
      let r = try positive("radius", 1)
      let around = segments(radius: r, tolerance: tolerance)
      shape = revolved(
        arc(radius: r, from: -.pi / 2, to: .pi / 2, centre: 0, steps: around / 2), around: around)
    case "Cylinder":
      let (r, h) = (try positive("radius", 1), try positive("height", 2))
      shape = frustum(bottom: r, top: r, height: h, around: segments(radius: r, tolerance: tolerance))
    case "Cylinder_1":
      let (bottom, top) = (try positive("radiusBottom", 1), try positive("radiusTop", 1))
      let h = try positive("height", 2)
      let around = segments(radius: max(bottom, top), tolerance: tolerance)
      shape = frustum(bottom: bottom, top: top, height: h, around: around)
    case "Cone":
      let (r, h) = (try positive("radius", 1), try positive("height", 2))
      shape = frustum(bottom: r, top: 0, height: h, around: segments(radius: r, tolerance: tolerance))
    case "Capsule":
      let (r, h) = (try positive("radius", 0.5), try positive("height", 1))
      shape = capsule(bottom: r, top: r, height: h, tolerance: tolerance)
    case "Capsule_1":
      let (bottom, top) = (try positive("radiusBottom", 0.5), try positive("radiusTop", 0.5))
      shape = capsule(bottom: bottom, top: top, height: try positive("height", 1), tolerance: tolerance)
    case "Plane":
      return plane(width: try positive("width", 2), length: try positive("length", 2), axis: axis)
    default:
      throw USDError(path: path, place: place, reason: "a \(type) prim, which is not read")
    }
    return turned(shape, toAxis: axis)
  }

  /// A profile point (distance from the axis, height along it) and its normal in the same
  /// (radial, axial) terms.
  typealias ProfilePoint = (point: SIMD2<Double>, normal: SIMD2<Double>)

  /// An arc of `radius` about height `centre` from angle `from` to `to` (radians above the
  /// equator), in `steps`: a sphere's or a capsule cap's profile, its normals radial.
  static func arc(radius: Double, from: Double, to: Double, centre: Double, steps: Int) -> [ProfilePoint] {
    (0...steps).map { k in
      // The last angle exactly `to` (a pole must be seen as one).
      let a = k == steps ? to : from + (to - from) * Double(k) / Double(steps)
      // Exactly 0 at the poles, so that their rings are seen as points.
      let normal = SIMD2(abs(a) == .pi / 2 ? 0 : Double.cos(a), Double.sin(a))
      return (SIMD2(radius * normal.x, centre + radius * normal.y), normal)
    }
  }

  /// A cylinder about z whose ends have radii `bottom` (at −`height`/2) and `top` (at
  /// +`height`/2), closed by flat caps (none for a zero radius): `Cylinder`, `Cylinder_1` and,
  /// its top a point, `Cone`.
  static func frustum(bottom: Double, top: Double, height h: Double, around: Int) -> GLTFPrimitiveAttributes {
    // The side's outward normal: its direction (top − bottom, h) turned a quarter.
    let lean = bottom - top
    let side = SIMD2(h, lean) / max((h * h + lean * lean).squareRoot(), .leastNormalMagnitude)
    var shape = GLTFPrimitiveAttributes(positions: [], triangles: [])
    if bottom > 0 {
      shape.merge(
        revolved([(SIMD2(0, -h / 2), SIMD2(0, -1)), (SIMD2(bottom, -h / 2), SIMD2(0, -1))], around: around))
    }
    shape.merge(revolved([(SIMD2(bottom, -h / 2), side), (SIMD2(top, h / 2), side)], around: around))
    if top > 0 {
      shape.merge(
        revolved([(SIMD2(top, h / 2), SIMD2(0, 1)), (SIMD2(0, h / 2), SIMD2(0, 1))], around: around))
    }
    return shape
  }

  /// A capsule about z: a cylinder of end radii `bottom` (at −`height`/2) and `top` (at
  /// +`height`/2) closed by two spherical caps that meet its side with a common tangent, as
  /// `UsdGeomCapsule_1` defines them (equal radii: `Capsule`'s hemispheres). Its side leans at
  /// φ, tan φ = (bottom − top) / height, so each cap's sphere has radius r / cos φ, centred
  /// r·tan φ below its end (usd-core's extent, to the last digit); a zero height draws two
  /// hemispheres. Each sphere's equator is a ring of vertices where its cap reaches it, so that
  /// the mesh's bounds are the schema's extent exactly.
  static func capsule(bottom: Double, top: Double, height h: Double, tolerance: Double)
    -> GLTFPrimitiveAttributes
  {
    let slope = h > 0 ? (bottom - top) / h : 0
    let lean = Double.atan(slope), stretch = (1 + slope * slope).squareRoot()
    let (lowRadius, highRadius) = (bottom * stretch, top * stretch)
    let around = segments(radius: max(lowRadius, highRadius), tolerance: tolerance)
    /// An arc from `from` to `to` in steps of at most a quarter turn's `around / 4`, with a ring
    /// at the equator where it crosses it.
    func cap(_ radius: Double, from: Double, to: Double, centre: Double) -> [ProfilePoint] {
      let stops = from < 0 && to > 0 ? [from, 0, to] : [from, to]
      return zip(stops, stops.dropFirst()).enumerated().flatMap { k, span in
        // (Less a hair, so that a quarter turn is exactly `around / 4` whatever the rounding.)
        let steps = max(1, Int((Double(around) * (span.1 - span.0) / (2 * .pi) - 1e-9).rounded(.up)))
        return arc(radius: radius, from: span.0, to: span.1, centre: centre, steps: steps).dropFirst(
          k == 0 ? 0 : 1)
      }
    }
    let lower = cap(lowRadius, from: -.pi / 2, to: lean, centre: -h / 2 - bottom * slope)
    let upper = cap(highRadius, from: lean, to: .pi / 2, centre: h / 2 - top * slope)
    return revolved(lower + upper, around: around)
  }

  /// The surface of `profile` turned about the z axis in `around` segments: a ring of vertices
  /// for each profile point, quads between consecutive rings.
  static func revolved(_ profile: [ProfilePoint], around: Int) -> GLTFPrimitiveAttributes {
    var positions: [SIMD3<Double>] = [], normals: [SIMD3<Double>] = [], triangles: [UInt32] = []
    for (point, normal) in profile {
      for k in 0..<around {
        let a = 2 * Double.pi * Double(k) / Double(around)
        let (c, s) = (Double.cos(a), Double.sin(a))
        positions.append([point.x * c, point.x * s, point.y])
        normals.append([normal.x * c, normal.x * s, normal.y])
      }
    }
    for ring in 0..<(profile.count - 1) {
      // A ring on the axis (a pole, a cap's centre) is one point: one triangle per segment.
      let (pole, nextPole) = (profile[ring].point.x == 0, profile[ring + 1].point.x == 0)
      for k in 0..<around {
        let a = UInt32(ring * around + k), b = UInt32(ring * around + (k + 1) % around)
        let (c, d) = (a + UInt32(around), b + UInt32(around))
        if !pole { triangles += [a, b, d] }
        if !nextPole { triangles += [a, d, c] }
      }
    }
    var shape = GLTFPrimitiveAttributes(positions: positions, triangles: triangles)
    shape.normals = normals
    return shape
  }

  /// A plane facing +`axis`: the width along x (z for an X axis), the length along y (z for a
  /// Y axis), as `UsdGeomPlane` lays them.
  static func plane(width: Double, length: Double, axis: String) -> GLTFPrimitiveAttributes {
    // (u, v) spans the plane with u × v = +axis.
    let (u, v, normal): (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) =
      switch axis {
      case "X": ([0, length / 2, 0], [0, 0, width / 2], [1, 0, 0])
      case "Y": ([0, 0, length / 2], [width / 2, 0, 0], [0, 1, 0])
      default: ([width / 2, 0, 0], [0, length / 2, 0], [0, 0, 1])
      }
    var shape = GLTFPrimitiveAttributes(
      positions: [-u - v, u - v, u + v, v - u], triangles: [0, 1, 2, 0, 2, 3])
    shape.normals = Array(repeating: normal, count: 4)
    return shape
  }

  /// An axis-aligned box of half-sizes `half`, six faces with flat normals.
  static func box(half: SIMD3<Double>) -> GLTFPrimitiveAttributes {
    var positions: [SIMD3<Double>] = [], normals: [SIMD3<Double>] = [], triangles: [UInt32] = []
    for axis in 0..<3 {
      for sign in [-1.0, 1.0] {
        var n = SIMD3<Double>.zero
        n[axis] = sign
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3)
        let base = UInt32(positions.count)
        for (du, dv) in [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)] {
          var p = n * half
          p[u] = du * half[u]
          p[v] = dv * half[v]
          positions.append(p)
          normals.append(n)
        }
        // Counter-clockwise seen from outside: u × v is the axis, so flip for the − side.
        triangles +=
          sign > 0
          ? [base, base + 1, base + 2, base, base + 2, base + 3]
          : [base, base + 2, base + 1, base, base + 3, base + 2]
      }
    }
    var shape = GLTFPrimitiveAttributes(positions: positions, triangles: triangles)
    shape.normals = normals
    return shape
  }

  /// A shape made about z turned to have its axis along `axis` (X: z to x; Y: z to y).
  static func turned(_ shape: GLTFPrimitiveAttributes, toAxis axis: String) -> GLTFPrimitiveAttributes {
    // Cyclic permutations keep the handedness: (x, y, z) → (y, z, x) puts z on x.
    let permute: (SIMD3<Double>) -> SIMD3<Double> =
      switch axis {
      case "X": { SIMD3($0.z, $0.x, $0.y) }
      case "Y": { SIMD3($0.y, $0.z, $0.x) }
      default: { $0 }
      }
    var out = shape
    out.positions = Vector3Array(shape.positions.map(permute))
    out.normals = shape.normals?.map(permute)
    return out
  }
}

extension GLTFPrimitiveAttributes {
  /// The box of the positions, in their own space: a mesh's extent as USD computes it when none
  /// is authored (an implicit shape's vertices reach its schema extent, so its box is that).
  var positionBounds: (min: SIMD3<Double>, max: SIMD3<Double>) {
    positions.reduce((SIMD3(repeating: .infinity), SIMD3(repeating: -.infinity))) {
      (pointwiseMin($0.0, $1), pointwiseMax($0.1, $1))
    }
  }

  /// Appends `other`'s vertices and triangles (positions and normals only).
  mutating func merge(_ other: GLTFPrimitiveAttributes) {
    let offset = UInt32(positions.count)
    positions = Vector3Array(positions.doubles + other.positions.doubles)
    normals = (normals ?? []) + (other.normals ?? [])
    triangles += other.triangles.map { $0 + offset }
  }
}
