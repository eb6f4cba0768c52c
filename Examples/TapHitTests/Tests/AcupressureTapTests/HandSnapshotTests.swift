import ARMath
import ARMesh
import ARSnapshotTesting
import ARTapTesting
import Testing

/// What the app shows, compared with the reference images in __Snapshots__/HandSnapshotTests
/// (recorded on the first run; ARSCENE_SNAPSHOTS=record records them again).
@Suite("What the acupressure app shows")
struct HandSnapshotTests {
  @Test("the hand from 30 cm, LI4 highlighted and tapped")
  func li4From30Centimetres() throws {
    let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
    let centre = try #require(try phone.screenPoint(of: "LI4"))
    expectSnapshot(
      try phone.snapshot(SnapshotOptions(highlighting: ["LI4"], tap: centre)), named: "li4-30cm-portrait")
  }

  @Test("the hand resting on its marker card, seen from 40 cm at a slant, in landscape")
  func handOnTheCard() throws {
    // The card (6 cm, marker frame: z out of the marker) lies on the table, its marker up; the
    // hand rests on it, palm down, the card under the heel of the palm.
    let card = try ModelAsset.load(path: shipped("marker-card.obj"), lenient: true).mesh
    let cardOnTable = RigidTransform<Double>(
      rotation: Quaternion(angle: .degrees(-90), axis: SIMD3(1, 0, 0)),
      translation: SIMD3(-0.005, 0.001, -0.03))
    let handOnCard = try TapScene(
      model: shipped("hand-right.obj"), points: shipped("hand-right-points.json"),
      worldFromModel: RigidTransform(rotation: .identity, translation: SIMD3(0, 0.034, 0)))
    let phone = try handOnCard.phone(
      aimedAt: "LI4", from: 0.40, towards: SIMD3(0.45, 0.6, 0.66), orientation: .landscapeRight)
    var options = SnapshotOptions(highlighting: ["LI4"])
    options.scenery = [SnapshotOptions.Scenery(mesh: card, worldFromModel: cardOnTable)]
    expectSnapshot(try phone.snapshot(options), named: "hand-on-card-landscape")
  }
}
