import RealModule

/// Sine and cosine of an angle in degrees, exact at multiples of 90° (sin 180° is 0, not 1.2e−16)
/// and accurate to round-off for any size of argument: the reduction to ±45° happens in degrees,
/// where it is exact, before the conversion to radians.
@inlinable
func sinCos(degrees x: Double) -> (sin: Double, cos: Double) {
  let (s, c) = sinCos(degrees: SIMD2(x, 0))
  return (s.x, c.x)
}

/// ``sinCos(degrees:)`` of two angles at once, their arithmetic in the two lanes of one vector
/// (a latitude and a longitude cost what one angle does); each lane's result is the same to the
/// bit as the angle's alone.
@inlinable
func sinCos(degrees x: SIMD2<Double>) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
  // Exact reduction to [−180, 180]; latitudes and most longitudes are there already, and libm's
  // remainder costs as much as the rest of a conversion.
  var r = x
  if !(abs(r.x) <= 180 && abs(r.y) <= 180) {
    for lane in 0..<2 where !(abs(r[lane]) <= 180) { r[lane] = r[lane].remainder(dividingBy: 360) }
  }
  // Round r / 90 (within ±2) to the nearest integer by the 1.5·2⁵² trick, exact and branch-free.
  // (A product with 1/90 rather than a quotient: at exact multiples of 90° it still gives the
  // integer, and elsewhere a quadrant chosen either side of ±45° is as good.) The integer's low
  // bits stay in the shifted value's mantissa, two's complement, so they give the quadrant mod
  // 4 with no conversion.
  let shifted = r * (1.0 / 90) + 0x1.8p52
  let quadrant = shifted - 0x1.8p52
  r -= 90 * quadrant  // exact; within ±45, or a hair beyond where the product rounded up
  let (s, c) = sinCosQuarter(r * (Double.pi / 180))
  @inline(__always) func turned(_ lane: Int) -> (sin: Double, cos: Double) {
    // Zero keeps its sign, which the geodesic's canonical form uses.
    if x[lane] == 0 { return (x[lane], 1) }
    return quarterTurned(Int(truncatingIfNeeded: shifted[lane].bitPattern), s[lane], c[lane])
  }
  let (first, second) = (turned(0), turned(1))
  return (SIMD2(first.0, second.0), SIMD2(first.1, second.1))
}

/// Sine and cosine of an angle of `x` radians within ±2π (a geodesic's azimuths and arcs),
/// within an ulp or two of libm's: the quarter turns are taken out with π/2 in two parts (so the
/// reduction loses nothing), and the rest goes through ``sinCosQuarter(_:)``.
@inlinable
func sinCos(radians x: Double) -> (sin: Double, cos: Double) {
  let shifted = x * (2 / Double.pi) + 0x1.8p52
  let quarter = shifted - 0x1.8p52  // the nearest integer, within ±4
  let r = (x - quarter * 1.5707963267948966) - quarter * 6.123233995736766e-17
  let (s, c) = sinCosQuarter(SIMD2(r, 0))
  return quarterTurned(Int(truncatingIfNeeded: shifted.bitPattern), s.x, c.x)
}

/// The sine and cosine of an angle `q` quarter turns past one whose are `s` and `c`, without
/// branches (the quadrant of a longitude is anyone's guess); `0 − v` rather than `−v`, so that
/// no −0 appears where the turn gives a zero.
@inlinable @inline(__always)
func quarterTurned(_ q: Int, _ s: Double, _ c: Double) -> (sin: Double, cos: Double) {
  let (a, b) = q & 1 == 0 ? (s, c) : (c, s)
  return (q & 2 == 0 ? a : 0 - a, (q + 1) & 2 == 0 ? b : 0 - b)
}

/// `atan2(y, x)` in degrees, in (−180, 180], exact at the axes and diagonals: the quadrant is
/// taken out first so that the arctangent only sees arguments in [0, 1].
@inlinable
func atan2Degrees(_ y: Double, _ x: Double) -> Double {
  var y = y, x = x
  var quadrant = 0
  if abs(y) > abs(x) {  // swap to keep the angle within ±45°
    (x, y) = (y, x)
    quadrant = 2
  }
  if x.sign == .minus {
    x = -x
    quadrant += 1
  }
  var angle = Double.atan2(y: y, x: x) * (180 / Double.pi)
  switch quadrant {
  case 1: angle = (y.sign == .minus ? -180 : 180) - angle
  case 2: angle = 90 - angle
  case 3: angle = -90 + angle
  default: break
  }
  return angle
}

/// An angle in degrees wrapped into (−180, 180].
@inlinable
func wrappedDegrees(_ x: Double) -> Double {
  let r = x.remainder(dividingBy: 360)
  return r == -180 ? 180 : r
}

/// Sines and cosines of two angles of `x` radians within ±π/4, by their Taylor series to x¹⁷ and x¹⁸ (the next
/// terms are below 10⁻¹⁹), evaluated in x²: within one unit in the last place of the correctly
/// rounded values (checked against libm on 2.2 million arguments), and several times cheaper
/// than a libm call, which must reduce any argument.
@inlinable
func sinCosQuarter(_ x: SIMD2<Double>) -> (sin: SIMD2<Double>, cos: SIMD2<Double>) {
  let z = x * x
  // (sin x − x) / x³ and (cos x − 1) / x², coefficients ±1/n!, by Horner's rule.
  var sinTail = -7.647163731819816e-13 + z * 2.8114572543455206e-15
  sinTail = 1.6059043836821613e-10 + z * sinTail
  sinTail = -2.505210838544172e-08 + z * sinTail
  sinTail = 2.7557319223985893e-06 + z * sinTail
  sinTail = -0.0001984126984126984 + z * sinTail
  sinTail = 0.008333333333333333 + z * sinTail
  sinTail = -0.16666666666666666 + z * sinTail
  var cosTail = 4.779477332387385e-14 + z * -1.5619206968586225e-16
  cosTail = -1.1470745597729725e-11 + z * cosTail
  cosTail = 2.08767569878681e-09 + z * cosTail
  cosTail = -2.755731922398589e-07 + z * cosTail
  cosTail = 2.48015873015873e-05 + z * cosTail
  cosTail = -0.001388888888888889 + z * cosTail
  cosTail = 0.041666666666666664 + z * cosTail
  cosTail = -0.5 + z * cosTail
  return (x + x * z * sinTail, 1 + z * cosTail)
}
