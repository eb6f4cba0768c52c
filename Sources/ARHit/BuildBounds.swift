import ARMath

/// The bounds of a set of ``BuildTriangle``s: the union of their boxes, and the box of their
/// doubled centres (what the bins divide). `w` lanes carry no meaning.
struct BuildBounds {
  var lower = SIMD4<Float>(repeating: .infinity)
  var upper = SIMD4<Float>(repeating: -.infinity)
  var centreLower = SIMD4<Float>(repeating: .infinity)
  var centreUpper = SIMD4<Float>(repeating: -.infinity)

  @inline(__always)
  mutating func add(_ triangle: BuildTriangle, centre: SIMD4<Float>) {
    lower = LaneMath.min(lower, triangle.lower)
    upper = LaneMath.max(upper, triangle.upper)
    centreLower = LaneMath.min(centreLower, centre)
    centreUpper = LaneMath.max(centreUpper, centre)
  }

  mutating func add(_ other: BuildBounds) {
    lower = LaneMath.min(lower, other.lower)
    upper = LaneMath.max(upper, other.upper)
    centreLower = LaneMath.min(centreLower, other.centreLower)
    centreUpper = LaneMath.max(centreUpper, other.centreUpper)
  }

  /// Half the surface area of the box (square units of the mesh).
  var halfArea: Float { Self.halfArea(lower, upper) }

  @inline(__always)
  static func halfArea(_ lower: SIMD4<Float>, _ upper: SIMD4<Float>) -> Float {
    let d = upper - lower
    return d.x * d.y + d.y * d.z + d.z * d.x
  }
}
