import ARGeo
import ARMath
import Testing

/// ENU ↔ world and geo-anchor poses.
@Suite struct GeoAnchorTests {
  @Test("ENU maps to the ARKit gravity and heading frame") func enuMapsToTheARKitGravityAndHeadingFrame() {
    #expect(WorldFrame.world(enu: SIMD3(1, 0, 0)) == SIMD3(1, 0, 0))  // east is +x
    #expect(WorldFrame.world(enu: SIMD3(0, 1, 0)) == SIMD3(0, 0, -1))  // north is −z
    #expect(WorldFrame.world(enu: SIMD3(0, 0, 1)) == SIMD3(0, 1, 0))  // up is +y
    #expect(WorldFrame.enu(world: WorldFrame.world(enu: SIMD3(3, 4, 5))) == SIMD3(3, 4, 5))
  }

  @Test("a heading turns forward clockwise from north") func aHeadingTurnsForwardClockwiseFromNorth() {
    let east = WorldFrame.rotation(heading: .degrees(90)).act(SIMD3(0, 0, -1))
    #expect((east - SIMD3(1, 0, 0)).length < 1e-15)
    #expect(abs(WorldFrame.heading(ofWorldDirection: SIMD3(-1, 5, 0))!.degrees - 270) < 1e-12)
    #expect(WorldFrame.heading(ofWorldDirection: SIMD3(0, 1, 0)) == nil)
  }

  @Test("a geo anchor lands where the session sees its coordinate")
  func aGeoAnchorLandsWhereTheSessionSeesItsCoordinate() throws {
    let frame = try LocalTangentFrame(
      origin: GeodeticCoordinate(latitudeDegrees: 49.9585, longitudeDegrees: 14.3950, height: 330))
    let gate = GeoAnchor(
      coordinate: GeodeticCoordinate(latitudeDegrees: 49.9590, longitudeDegrees: 14.3962, height: 335),
      heading: .degrees(30))
    let alignment = SessionAlignment(yaw: .degrees(-20), originENU: SIMD3(5, -3, 1.2))
    let pose = gate.sessionFromAnchor(in: frame, alignment: alignment)
    // The anchor's origin, mapped back through the alignment, is its ENU position.
    let enu = alignment.enu(sessionPoint: pose.translation)
    #expect((enu - frame.enu(gate.coordinate)).length < 1e-9)
    // Its −Z axis points at heading 30° in the geographic world.
    let forward = pose.transformDirection(SIMD3(0, 0, -1))
    #expect(abs(alignment.heading(ofSessionDirection: forward)!.degrees - 30) < 1e-9)
  }
}
