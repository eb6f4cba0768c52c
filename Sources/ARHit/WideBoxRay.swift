import ARMath

/// A ray prepared for conservative slab tests against ``WideNode``'s `Float` boxes.
///
/// The box test runs in `Float`, four boxes at a time, yet never culls a box the `Double` ray
/// touches:
/// - The direction is scaled by a power of two (exact) so its largest component is in [1, 2);
///   ray parameters are scaled by the same factor (``scaledAbove(_:)``, ``scaledBelow(_:)``), so
///   `Float` holds them.
/// - The origin is bracketed by the `Float`s just below and above it; each slab's near plane is
///   measured from the bracket end that makes its distance smaller, the far plane from the one
///   that makes it larger (which end depends on the direction's sign).
/// - The remaining error, three roundings per distance (subtraction, reciprocal, product), is
///   covered by widening the far distance by 1 + 2γ₄ before comparing (Ize, "Robust BVH Ray
///   Traversal", JCGT 2013, with one rounding to spare).
/// Which bound of a box is the near plane depends only on the direction's signs, so the
/// traversal loads the near and far vectors from byte offsets chosen once per ray, with no
/// per-lane minimum and maximum.
@usableFromInline
struct WideBoxRay {
  /// Byte offsets of the near and far bound vectors of each axis in a ``WideNode``.
  @usableFromInline let nearOffset: SIMD3<Int>, farOffset: SIMD3<Int>
  /// The origin, per axis, as the near and the far plane measure from it.
  @usableFromInline let nearOrigin: SIMD3<Float>, farOrigin: SIMD3<Float>
  /// The reciprocal of the scaled direction; ±`greatestFiniteMagnitude` for a zero component.
  @usableFromInline let inverse: SIMD3<Float>
  /// Ray parameter → scaled parameter: multiply by this power of two.
  @usableFromInline let parameterScale: Double
  /// 1 + 2γ₄ in `Float`, rounded up: 1 + 5·2⁻²³ (a literal, as a `static let` cost a lazy
  /// initialisation check per use; ``widenMatchesFormula()`` holds it to the formula).
  @usableFromInline static var widen: Float { Float(bitPattern: 0x3F80_0005) }

  /// Whether ``widen`` is 1 + 2γ₄ rounded up (γₙ = n·u/(1 − n·u), u = 2⁻²⁴).
  static func widenMatchesFormula() -> Bool {
    let u = Double(Float.ulpOfOne) / 2
    return widen == (1 + 2 * (4 * u) / (1 - 4 * u)).floatAbove
  }

  @usableFromInline
  init(_ ray: HitRay) {
    let d = ray.direction
    let largest = max(abs(d.x), max(abs(d.y), abs(d.z)))
    // 2^-e with e the exponent of the largest component; exact to multiply by. Read off the
    // bits (`exponent` is a library call); extreme exponents take the general initialiser.
    let exponent = Int((largest.bitPattern >> 52) & 0x7FF) - 1023
    let scale =
      (-1022...1022).contains(exponent)
      ? Double(bitPattern: UInt64(1023 - exponent) << 52)
      : Double(sign: .plus, exponent: -largest.exponent, significand: 1)
    parameterScale = 1 / scale
    let scaled = d * scale
    func reciprocal(_ v: Double) -> Float {
      let r = 1 / v
      if v == 0 || abs(r) > Double(Float.greatestFiniteMagnitude) {
        // Parallel to the slab (or within 2⁻¹²⁸ of it): a huge finite value, so that 0·∞
        // never makes NaN.
        return (v.sign == .minus ? -1 : 1) * .greatestFiniteMagnitude
      }
      return Float(r)
    }
    inverse = SIMD3(reciprocal(scaled.x), reciprocal(scaled.y), reciprocal(scaled.z))
    let o = ray.origin
    let below = SIMD3(o.x.floatBelow, o.y.floatBelow, o.z.floatBelow)
    let above = SIMD3(o.x.floatAbove, o.y.floatAbove, o.z.floatAbove)
    // Travelling up an axis, the lower bound is met first; measured from above the origin its
    // distance only shrinks, and the upper bound's, from below, only grows. Chosen per axis by
    // selects (stores into lanes at run-time indices stalled on store forwarding).
    let up = (d.x.sign == .plus, d.y.sign == .plus, d.z.sign == .plus)
    nearOrigin = SIMD3(up.0 ? above.x : below.x, up.1 ? above.y : below.y, up.2 ? above.z : below.z)
    farOrigin = SIMD3(up.0 ? below.x : above.x, up.1 ? below.y : above.y, up.2 ? below.z : above.z)
    let lower = WideNode.lowerOffsets, upper = WideNode.upperOffsets
    nearOffset = SIMD3(up.0 ? lower.x : upper.x, up.1 ? lower.y : upper.y, up.2 ? lower.z : upper.z)
    farOffset = SIMD3(up.0 ? upper.x : lower.x, up.1 ? upper.y : lower.y, up.2 ? upper.z : lower.z)
  }

  /// The scaled parameter at or above ray parameter `t`, for far limits.
  @inlinable @inline(__always)
  func scaledAbove(_ t: Double) -> Float { (t * parameterScale).floatAbove }

  /// The scaled parameter at or below ray parameter `t`, for near limits.
  @inlinable @inline(__always)
  func scaledBelow(_ t: Double) -> Float { (t * parameterScale).floatBelow }

  /// Per lane, the scaled entry distance into the four boxes of the node at `node`, and whether
  /// the ray meets the box between `near` and `far` (scaled parameters).
  @inlinable @inline(__always)
  func test(_ node: UnsafeRawPointer, near: Float, far: Float) -> (entry: SIMD4<Float>, hits: Int) {
    @inline(__always) func slab(_ axis: Int) -> (SIMD4<Float>, SIMD4<Float>) {
      let n = node.load(fromByteOffset: nearOffset[axis], as: SIMD4<Float>.self)
      let f = node.load(fromByteOffset: farOffset[axis], as: SIMD4<Float>.self)
      let i = SIMD4(repeating: inverse[axis])
      return ((n - SIMD4(repeating: nearOrigin[axis])) * i, (f - SIMD4(repeating: farOrigin[axis])) * i)
    }
    let (nx, fx) = slab(0), (ny, fy) = slab(1), (nz, fz) = slab(2)
    let entry = LaneMath.max(LaneMath.max(nx, ny), LaneMath.max(nz, SIMD4(repeating: near)))
    let exit = LaneMath.min(LaneMath.min(LaneMath.min(fx, fy), fz), SIMD4(repeating: far)) * Self.widen
    return (entry, LaneMath.atMost(entry, exit))
  }
}

extension Double {
  // Both roundings decide by a comparison whose outcome is a coin toss for arbitrary input, so
  // they step the bit pattern by selects, not branches: as branches, six of them cost a ray's
  // set-up more than all its arithmetic. Stepping the bits of a nonzero `Float` by one towards
  // −∞ or +∞ gives its neighbour, also from ±∞ to ±greatestFiniteMagnitude; zero steps from the
  // zero of the matching sign (−0 down to −2⁻¹⁴⁹, +0 up to +2⁻¹⁴⁹).

  /// The largest `Float` ≤ self (boxes and brackets grow outwards when narrowed to `Float`).
  /// Self is not NaN.
  @inlinable @inline(__always)
  var floatBelow: Float {
    let f = Float(self)
    let start = f == 0 ? -Float.zero : f
    let step: UInt32 = start.sign == .minus ? 1 : 0xFFFF_FFFF
    let down = Float(bitPattern: start.bitPattern &+ step)
    return Double(f) > self ? down : f
  }

  /// The smallest `Float` ≥ self. Self is not NaN.
  @inlinable @inline(__always)
  var floatAbove: Float {
    let f = Float(self)
    let start = f == 0 ? Float.zero : f
    let step: UInt32 = start.sign == .minus ? 0xFFFF_FFFF : 1
    let up = Float(bitPattern: start.bitPattern &+ step)
    return Double(f) < self ? up : f
  }
}
