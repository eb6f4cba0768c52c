import ARHit
import ARTapTesting
import Foundation
import Testing

/// The right hand the app shows, and its eleven points (model frame: palm down, back of the
/// hand +Y, fingers along −Z, metres).
let hand = try! TapScene(model: shipped("hand-right.obj"), points: shipped("hand-right-points.json"))

@Suite("Tapping points on the hand")
struct HandTapTests {
  @Test(
    "a tap on LI4 selects LI4, near and far, in every orientation",
    arguments: [0.30, 1.5], InterfaceOrientation.allCases)
  func li4(distance: Double, orientation: InterfaceOrientation) throws {
    let phone = try hand.phone(aimedAt: "LI4", from: distance, orientation: orientation)
    #expect(try phone.tap(on: "LI4").best == "LI4")
  }

  @Test("a finger 15 points off still selects LI4 from 30 cm")
  func fingerError() throws {
    let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
    #expect(try phone.tap(on: "LI4", offset: [15, -8]).best == "LI4")
  }

  @Test("a tap between points selects nothing, and says why")
  func miss() throws {
    let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
    let result = try phone.tap(on: "LI4", offset: [0, 120])
    #expect(result.best == nil)
    guard case .outsideTolerance(let distance, let tolerance, "points")? = result.verdict(for: "LI4") else {
      Issue.record("LI4: \(String(describing: result.verdict(for: "LI4")))")
      return
    }
    #expect(distance > tolerance)
  }

  @Test("points on the palm are hidden by the hand when the phone sees its back")
  func occludedByTheHand() throws {
    let phone = try hand.phone(aimedAt: "PC8", from: 0.30)  // from above: the back of the hand
    let result = try phone.tap(on: "PC8")
    #expect(result.best != "PC8")
    guard case .occluded? = result.verdict(for: "PC8") else {
      Issue.record("PC8: \(String(describing: result.verdict(for: "PC8")))")
      return
    }
  }

  @Test("from below, the palm's points are the ones that can be tapped")
  func palmSide() throws {
    let phone = try hand.phone(aimedAt: "PC8", from: 0.30, towards: [0, -1, 0])
    #expect(try phone.tap(on: "PC8").best == "PC8")
  }
}

/// A model the app ships (the repository's Models folder).
func shipped(_ name: String) -> String {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../../Scenes/models/\(name)").standardized.path
}

/// The same hand as the app ships it in a GLB: the points are empty nodes named by their codes.
@Suite("Tapping points on the hand's GLB")
struct HandGLBTapTests {
  let glb = try! TapScene(model: shipped("hand-right.glb"), targetRadius: 0.005)

  @Test("the GLB's empties are the eleven points, and a tap on LI4 selects LI4 from 30 cm")
  func li4() throws {
    #expect(glb.targets.map(\.name) == hand.targets.map(\.name))
    for (a, b) in zip(glb.targets, hand.targets) {
      #expect(((a.sphere.center - b.sphere.center) * (a.sphere.center - b.sphere.center)).sum() < 1e-12)
    }
    let phone = try glb.phone(aimedAt: "LI4", from: 0.30)
    #expect(try phone.tap(on: "LI4").best == "LI4")
  }
}
