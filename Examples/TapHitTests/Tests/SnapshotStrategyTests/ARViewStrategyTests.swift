import ARImage
import ARMesh
import ARSnapshotStrategy
import ARSnapshotTesting
import ARTapTesting
import Foundation
import SnapshotTesting
import Testing

/// The hand the acupressure app shows (the repository's model and its eleven points).
let hand = try! TapScene(model: shipped("hand-right.obj"), points: shipped("hand-right-points.json"))

@Suite("assertSnapshot(of: phone, as: .arView(…))")
struct ARViewStrategyTests {
  @Test("LI4 from 30 cm, beside the team's other snapshot tests")
  func li4() throws {
    let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
    assertSnapshot(of: phone, as: .arView(SnapshotOptions(highlighting: ["LI4"])), named: "li4-30cm")
  }

  @Test("record, pass, change, fail: in swift-snapshot-testing's own style")
  func recordPassChangeFail() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("arview-strategy-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
    let strategy = Snapshotting<PhoneView, RGBA8Image>.arView(SnapshotOptions(highlighting: ["LI4"]))
    // Record: the first run writes the reference and fails, saying so.
    let recorded = verifySnapshot(of: phone, as: strategy, named: "li4", snapshotDirectory: directory)
    #expect(recorded?.contains("No reference was found on disk") == true, "\(recorded ?? "passed")")
    #expect(FileManager.default.fileExists(atPath: directory + "/recordPassChangeFail.li4.png"))
    // Pass: the same view again.
    #expect(verifySnapshot(of: phone, as: strategy, named: "li4", snapshotDirectory: directory) == nil)
    // Change: LI4 moved 2 mm along the hand; the phone where it was. Fail, with the figures.
    let moved = try TapScene(mesh: hand.mesh, points: try movedPoints("LI4", by: 0.002)).phone(
      worldFromCamera: phone.tester.camera.camera.worldFromCamera)
    let failed = verifySnapshot(of: moved, as: strategy, named: "li4", snapshotDirectory: directory)
    #expect(
      failed?.contains("pixels") == true && failed?.contains("differ by more than 5/255") == true,
      "\(failed ?? "passed")")
  }
}

/// The hand's points with `code` moved `metres` along the model's x axis.
func movedPoints(_ code: String, by metres: Double) throws -> PointSet {
  var set = try PointSet.load(path: shipped("hand-right-points.json"))
  let i = try #require(set.points.firstIndex { $0.code == code })
  set.points[i].position[0] += metres
  return set
}

/// A model the app ships (the repository's Models folder).
func shipped(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../Scenes/models/\(name)").standardized.path
}
