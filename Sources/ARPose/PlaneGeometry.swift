import ARMath
import RealModule

/// Plane geometry shared by the detector: fitting, hulls, rectangles.
enum PlaneGeometry {
  /// Least-squares plane through points: the centroid and the covariance's smallest eigenvector.
  static func fit(_ points: [SIMD3<Double>], _ indices: [Int]) -> (
    normal: SIMD3<Double>, centroid: SIMD3<Double>
  )? {
    guard indices.count >= 3 else { return nil }
    var centroid = SIMD3<Double>.zero
    for i in indices { centroid += points[i] }
    centroid /= Double(indices.count)
    var c = Matrix3<Double>.zero
    for i in indices {
      let d = points[i] - centroid
      c = c + Matrix3(d * d.x, d * d.y, d * d.z)
    }
    let eigen = SymmetricEigen3(c)
    guard eigen.values.y > 0 else { return nil }  // collinear: no plane
    return (eigen.vectors.columns.0, centroid)
  }

  /// Two unit axes spanning the plane with normal n.
  static func basis(_ n: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>) {
    let u = n.anyPerpendicular().normalized()
    return (u, n.cross(u))
  }

  /// The minimum-area rectangle around a convex polygon (rotating calipers over its edges):
  /// centre, unit direction of the first side, and the two side lengths.
  static func minimumRectangle(_ hull: [SIMD2<Double>]) -> (
    center: SIMD2<Double>, direction: SIMD2<Double>, size: SIMD2<Double>
  ) {
    guard hull.count >= 2 else { return (hull.first ?? .zero, SIMD2(1, 0), .zero) }
    var best = (
      area: Double.infinity, center: SIMD2<Double>.zero, direction: SIMD2<Double>(1, 0),
      size: SIMD2<Double>.zero
    )
    for i in 0..<hull.count {
      let e = hull[(i + 1) % hull.count] - hull[i]
      let length = e.length
      guard length > 0 else { continue }
      let u = e / length, v = SIMD2(-u.y, u.x)
      var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
      for p in hull {
        let a = (p * u).sum(), b = (p * v).sum()
        minU = min(minU, a)
        maxU = max(maxU, a)
        minV = min(minV, b)
        maxV = max(maxV, b)
      }
      let area = (maxU - minU) * (maxV - minV)
      if area < best.area {
        best = (area, u * ((minU + maxU) / 2) + v * ((minV + maxV) / 2), u, SIMD2(maxU - minU, maxV - minV))
      }
    }
    return (best.center, best.direction, best.size)
  }
}
