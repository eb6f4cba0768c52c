import ARGeo
import ARMath

extension SceneResolver {
  /// The scene's local ENU frame and session alignment, if the file has `geo`.
  struct GeoPlacement {
    let frame: LocalTangentFrame
    let alignment: SessionAlignment
  }

  func geoPlacement() throws(SceneError) -> GeoPlacement? {
    guard let geo = file.geo else { return nil }
    let origin = GeodeticCoordinate(
      latitudeDegrees: geo.origin.latitude, longitudeDegrees: geo.origin.longitude,
      height: geo.origin.height ?? 0)
    let frame: LocalTangentFrame
    do { frame = try LocalTangentFrame(origin: origin) } catch { throw fail("geo.origin", error.description) }
    var alignment = SessionAlignment()
    if let session = geo.sessionAlignment {
      if let yaw = session.yawDeg {
        guard yaw.isFinite else { throw fail("geo.session_alignment.yaw_deg", "not a finite number") }
        alignment.yaw = .degrees(yaw)
      }
      if let t = session.originENU {
        guard t.count == 3, t.allSatisfy(\.isFinite) else {
          throw fail("geo.session_alignment.origin_enu", "expected 3 finite numbers (east, north, up metres)")
        }
        alignment.originENU = SIMD3(t[0], t[1], t[2])
      }
    }
    return GeoPlacement(frame: frame, alignment: alignment)
  }

  /// `world_from_anchor` of a geo-anchor, in the session world, as the renderer's Float matrix,
  /// and the anchor itself.
  func worldFromGeoAnchor(
    _ anchor: SceneFile.Anchor.GeoLocation, _ placement: GeoPlacement?, _ field: String
  ) throws(SceneError) -> (Matrix4<Float>, GeoAnchor) {
    guard let placement else { throw fail(field, "a geo anchor needs the scene's geo.origin") }
    let coordinate: GeodeticCoordinate
    do {
      coordinate = try GeodeticCoordinate(
        latitudeDegrees: anchor.latitude, longitudeDegrees: anchor.longitude, height: anchor.height ?? 0
      ).validated()
    } catch { throw fail(field, error.description) }
    guard anchor.headingDeg?.isFinite ?? true else {
      throw fail(field + ".heading_deg", "not a finite number")
    }
    let geo = GeoAnchor(coordinate: coordinate, heading: .degrees(anchor.headingDeg ?? 0))
    let pose = geo.sessionFromAnchor(in: placement.frame, alignment: placement.alignment)
    // Far anchors lose Float precision in the renderer; 10 km keeps it at a millimetre.
    guard pose.translation.length <= 10_000 else {
      throw fail(
        field,
        "is \(Self.metres(pose.translation.length)) from the scene's geo.origin; keep anchors within 10 km")
    }
    return (Self.floatMatrix(pose), geo)
  }
}
