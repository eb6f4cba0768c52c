import ARGeo
import ARMath

/// How far a position is outside a fence: metres, negative inside.
struct FenceDistance: Sendable {
  private let measure: @Sendable (GeodeticCoordinate) -> Double

  init(_ shape: Geofence.Shape) throws(GeoError) {
    switch shape {
    case .circle(let center, let radius):
      let c = try center.validated()
      guard radius > 0, radius.isFinite else {
        throw .invalidCoordinate(
          field: "radius", value: radius, reason: "must be a finite number of metres > 0")
      }
      let geodesic = Geodesic()
      measure = { p in
        // The local formula to a mm up to 10 km; beyond it the geodesic.
        let near = (try? LocalDistance.between(c, p)) ?? .infinity
        let d = near < 10_000 ? near : ((try? geodesic.inverse(from: c, to: p).distance) ?? .infinity)
        return d - radius
      }
    case .polygon(let ring):
      guard ring.count >= 3 else {
        throw .invalidCoordinate(
          field: "polygon", value: Double(ring.count), reason: "needs at least 3 vertices")
      }
      let frame = try LocalTangentFrame(origin: ring[0].validated())
      let vertices = ring.map { p in
        let v = frame.enu(
          GeodeticCoordinate(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees))
        return SIMD2(v.x, v.y)
      }
      measure = { p in
        let e = frame.enu(
          GeodeticCoordinate(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees))
        return Polyline2D.signedDistance(SIMD2(e.x, e.y), ring: vertices)
      }
    }
  }

  func callAsFunction(_ p: GeodeticCoordinate) -> Double { measure(p) }
}
