import ARHit
import ARMath
import ARTapTesting
import ARTestSupport
import Foundation
import Testing

/// ARTapTesting as an app team's tests use it, on the shipped hand: placement far from the
/// origin, every point tappable from the side that sees it, and errors that name the problem.
@Suite("Tap scenes")
struct TapSceneTests {
  static let models = Fixtures.root + "/../../Scenes/models"

  static func hand(_ worldFromModel: RigidTransform<Double> = .identity) throws -> TapScene {
    try TapScene(
      model: models + "/hand-right.obj", points: models + "/hand-right-points.json",
      worldFromModel: worldFromModel)
  }

  @Test("the shipped hand reads without a warning: nothing of it left out")
  func handWithoutWarnings() throws {
    #expect(try Self.hand().modelWarnings.isEmpty)
  }

  @Test(
    "a phone held upright at a position, along a compass heading: the point it faces at the view's centre, up at the top",
    arguments: InterfaceOrientation.allCases)
  func heldUpright(orientation: InterfaceOrientation) throws {
    // The hand 10 m north-east of the visitor (ARKit's world: −Z north, +X east), 1 m up.
    let hand = try Self.hand(RigidTransform(rotation: .identity, translation: [7.071, 1, -7.071]))
    let li4 = try hand.target("LI4").sphere.center
    let eye = SIMD3<Double>(0, 1.5, 0)
    let toward = li4 - eye
    let heading = atan2(toward.x, -toward.z) * 180 / .pi
    let pitch = atan2(toward.y, (toward.x * toward.x + toward.z * toward.z).squareRoot()) * 180 / .pi
    let phone = try hand.phone(at: eye, heading: heading, pitch: pitch, orientation: orientation)
    let size = phone.tester.camera.viewport.size
    let centre = try #require(try phone.screenPoint(of: "LI4"))
    #expect(abs(centre.x - size.x / 2) < 1e-6 && abs(centre.y - size.y / 2) < 1e-6, "\(centre)")
    // A point 10 cm above LI4 shows straight above it on the screen.
    let above = try #require(phone.tester.camera.tapPoint(forWorldPoint: li4 + [0, 0.1, 0])).point
    #expect(above.y < centre.y - 5 && abs(above.x - centre.x) < 1e-6, "\(above) against \(centre)")
    #expect(throws: TapSceneError.self) { _ = try hand.phone(at: eye, heading: 0, pitch: 90) }
  }

  @Test("every point on the back of the hand is selected by a tap on it from 30 cm above")
  func everyPointFromAbove() throws {
    let hand = try Self.hand()
    var tapped = 0
    for target in hand.targets {
      let phone = try hand.phone(aimedAt: target.name, from: 0.30)
      // A point the hand hides from above (the palm's) is hidden, not mistaken for another.
      let result = try phone.tap(on: target.name)
      if case .occluded? = result.verdict(for: target.name) { continue }
      #expect(result.best == target.name, "\(target.name): \(String(describing: result.best))")
      tapped += 1
    }
    #expect(tapped >= 5)
  }

  @Test("a hand placed 5,000 km from the origin (projected coordinates) taps as at the origin")
  func farFromTheOrigin() throws {
    let far = RigidTransform<Double>(
      rotation: Quaternion(angle: .radians(0.7), axis: [0, 1, 0]), translation: [500_000, 120, 5_500_000])
    let (near, moved) = (try Self.hand(), try Self.hand(far))
    for target in near.targets {
      let here = try near.phone(aimedAt: target.name, from: 0.30).tap(on: target.name)
      let there = try moved.phone(aimedAt: target.name, from: 0.30).tap(on: target.name)
      #expect(here.best == there.best, "\(target.name)")
    }
  }

  @Test("an unknown point, a bad distance and a missing model are errors that say so")
  func errors() throws {
    let hand = try Self.hand()
    #expect {
      try hand.phone(aimedAt: "XX1", from: 0.3)
    } throws: { error in
      guard case .unknownTarget("XX1", let known)? = error as? TapSceneError else { return false }
      return known.contains("LI4")
    }
    #expect(throws: TapSceneError.invalidPlacement("distance must be positive and the direction non-zero")) {
      try hand.phone(aimedAt: "LI4", from: -1)
    }
    #expect {
      try TapScene(model: "/nonexistent/hand.obj", points: Self.models + "/hand-right-points.json")
    } throws: { error in
      guard case .model? = error as? TapSceneError else { return false }
      return "\(error)".contains("/nonexistent/hand.obj")
    }
  }
}
