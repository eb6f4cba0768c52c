import RealModule

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Ellipsoid {
  /// Earth-centred, Earth-fixed (ECEF) Cartesian coordinates of a geodetic position, metres:
  /// x towards (0°, 0°), y towards (0°, 90° E), z towards the north pole.
  @inlinable
  public func ecef(_ p: GeodeticCoordinate) -> SIMD3<Double> {
    let (sines, cosines) = sinCos(degrees: SIMD2(p.latitudeDegrees, p.longitudeDegrees))
    let (sinLat, sinLon, cosLat, cosLon) = (sines.x, sines.y, cosines.x, cosines.y)
    let n = primeVerticalRadius(sinLatitude: sinLat)
    let r = (n + p.height) * cosLat
    return SIMD3(r * cosLon, r * sinLon, (n * (1 - eccentricitySquared) + p.height) * sinLat)
  }

  /// The geodetic position of an ECEF point (metres), exact to round-off everywhere: on the
  /// axis, at the poles, deep inside the Earth (including its centre, which lies b below the
  /// north pole), and far out in space.
  ///
  /// The closed-form solution of Vermeille (2011, "An analytical method to transform geocentric
  /// into geodetic coordinates", J. Geodesy 85), with the cancellation-free rearrangements that
  /// keep it accurate near the centre, where the inner points of the evolute lie.
  public func geodetic(ecef point: SIMD3<Double>) -> GeodeticCoordinate {
    let x = point.x, y = point.y, z = point.z
    let a = equatorialRadius, e2 = eccentricitySquared, e2m = 1 - e2, e4 = e2 * e2
    let rho = (x * x + y * y).squareRoot()
    let longitude = rho == 0 ? 0 : atan2Degrees(y, x)

    let sinLat: Double, cosLat: Double, height: Double
    let p = (rho / a) * (rho / a), q = e2m * (z / a) * (z / a), r = (p + q - e4) / 6
    if e4 * q == 0 && r <= 0 {
      // On the equatorial disc inside the evolute (the centre included): two normals meet
      // here; the nearer surface point is off the equator.
      let zz = ((e4 - p) / e2m).squareRoot(), xx = p.squareRoot()
      let hyp = (zz * zz + xx * xx).squareRoot()
      sinLat = (z.sign == .minus ? -zz : zz) / hyp
      cosLat = xx / hyp
      height = -a * e2m * hyp / e2
    } else {
      let s = e4 * p * q / 4
      let r2 = r * r, r3 = r * r2
      let discriminant = s * (s + 2 * r3)
      var u = r
      if discriminant >= 0 {
        var t3 = s + r3
        t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()  // no cancellation
        let t = cbrt(t3)
        u += t + (t != 0 ? r2 / t : 0)
      } else {
        // Three real roots: the trigonometric form picks the right one.
        let angle = Double.atan2(y: (-discriminant).squareRoot(), x: -(s + r3))
        u += 2 * r * Double.cos(angle / 3)
      }
      let v = (u * u + e4 * q).squareRoot()
      let uv = u < 0 ? e4 * q / (v - u) : u + v  // u + v without cancellation
      let w = max(0, e2 * (uv - q) / (2 * v))
      let k = uv / ((uv + w * w).squareRoot() + w)
      let k2 = k + e2
      let d = k * rho / k2
      let zk = z / k, rk = rho / k2
      let hyp = (zk * zk + rk * rk).squareRoot()
      sinLat = zk / hyp
      cosLat = rk / hyp
      height = (1 - e2m / k) * (d * d + z * z).squareRoot()
    }
    return GeodeticCoordinate(
      latitudeDegrees: atan2Degrees(sinLat, cosLat), longitudeDegrees: longitude, height: height)
  }
}
