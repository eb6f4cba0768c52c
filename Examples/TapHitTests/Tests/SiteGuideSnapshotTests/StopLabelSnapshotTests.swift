import ARGeo
import ARMath
import ARSnapshotTesting
import ARTapTesting
import Foundation
import Testing

/// What a site guide shows at Závist: a stop's label over its house, seen from the gate, as a
/// visitor's phone there would place it from its GPS position and compass heading.
@Suite("What the site guide shows")
struct StopLabelSnapshotTests {
  /// The site's local frame: east, north, up metres about the gate.
  static let site = try! LocalTangentFrame(
    origin: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953, height: 437))

  /// House 3 at its surveyed position and heading, its stop's marker on the ridge.
  static func house() throws -> TapScene {
    let position = WorldFrame.world(
      enu: site.enu(
        GeodeticCoordinate(latitudeDegrees: 49.958870808029, longitudeDegrees: 14.395481154860, height: 437)))
    return try TapScene(
      model: shipped("zavist-house.obj"), points: stops("house-stop.json"),
      worldFromModel: RigidTransform(
        rotation: WorldFrame.rotation(heading: .degrees(-15)), translation: position))
  }

  /// A phone held 1.5 m above the ground at `latitude`, `longitude`, its camera along compass
  /// `heading` (degrees from north), level, in portrait.
  static func phone(at latitude: Double, _ longitude: Double, heading: Double, scene: TapScene) throws
    -> PhoneView
  {
    let eye = WorldFrame.world(
      enu: site.enu(GeodeticCoordinate(latitudeDegrees: latitude, longitudeDegrees: longitude, height: 438.5))
    )
    return try scene.phone(at: eye, heading: heading, orientation: .portrait)
  }

  @Test("stop 3's label over house 3, seen from the gate looking north-east")
  func stopLabelFromTheGate() throws {
    let house = try Self.house()
    let phone = try Self.phone(at: 49.9587, 14.3953, heading: 35, scene: house)
    var options = SnapshotOptions(labels: ["stop-3": "Stop 3 · Wattle-and-daub house"])
    options.highlighted = ["stop-3"]
    expectSnapshot(try phone.snapshot(options), named: "stop-3-from-gate")
  }
}

/// A file of this target's fixtures.
func stops(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(name).path
}

/// A model the app ships (the repository's Models folder).
func shipped(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../Scenes/models/\(name)").standardized.path
}
