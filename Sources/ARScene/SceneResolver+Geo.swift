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
    let o = geo.origin
    let origin = GeodeticCoordinate(
      latitudeDegrees: o.latitude, longitudeDegrees: o.longitude,
      height: try height(o.height, altitudeMSL: o.altitudeMSL, o.latitude, o.longitude, "geo.origin"))
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
    let geo = try geoAnchor(anchor, field)
    let pose = geo.sessionFromAnchor(in: placement.frame, alignment: placement.alignment)
    // Far anchors lose Float precision in the renderer; 10 km keeps it at a millimetre.
    guard pose.translation.length <= 10_000 else {
      throw fail(
        field,
        "is \(Self.metres(pose.translation.length)) from the scene's geo.origin; keep anchors within 10 km")
    }
    return (Self.floatMatrix(pose), geo)
  }

  /// The ARGeo anchor of a scene's `geo` field, validated.
  func geoAnchor(_ anchor: SceneFile.Anchor.GeoLocation, _ field: String) throws(SceneError) -> GeoAnchor {
    let h = try height(
      anchor.height, altitudeMSL: anchor.altitudeMSL, anchor.latitude, anchor.longitude, field)
    let coordinate: GeodeticCoordinate
    do {
      coordinate = try GeodeticCoordinate(
        latitudeDegrees: anchor.latitude, longitudeDegrees: anchor.longitude, height: h
      ).validated()
    } catch { throw fail(field, error.description) }
    guard anchor.headingDeg?.isFinite ?? true else {
      throw fail(field + ".heading_deg", "not a finite number")
    }
    return GeoAnchor(coordinate: coordinate, heading: .degrees(anchor.headingDeg ?? 0))
  }

  /// A height above the ellipsoid from a place's `height` or `altitude_msl` (plus the EGM96
  /// undulation there), 0 when neither is given.
  func height(
    _ height: Double?, altitudeMSL: Double?, _ latitude: Double, _ longitude: Double, _ field: String
  ) throws(SceneError) -> Double {
    switch (height, altitudeMSL) {
    case (.some, .some): throw fail(field, "give height (above the ellipsoid) or altitude_msl, not both")
    case (let h?, nil): return h
    case (nil, let a?):
      guard a.isFinite, abs(a) <= GeodeticCoordinate.heightLimit else {
        throw fail(field + ".altitude_msl", "\(a) must be finite and within ±100,000 km")
      }
      do {
        return try Geoid.egm96.ellipsoidalHeight(altitudeMSL: a, latitude: latitude, longitude: longitude)
      } catch { throw fail(field, error.description) }
    case (nil, nil): return 0
    }
  }
}
