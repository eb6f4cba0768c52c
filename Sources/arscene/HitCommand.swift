import ARHit
import ARMath
import ARScene
import ARSceneRendering
import ArgumentParser
import Foundation

/// `arscene hit`: which named point of a scene a tap selects, and why.
struct HitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hit",
    abstract: "Hit-test a tap against a scene's named points (objects[].points), occluded by its models.",
    discussion: """
      The tap is in view points: by default the view is the scene's output image (pixels, \
      top-left origin); --view and --orientation describe a phone screen showing the camera image \
      aspect-filled instead. Prints JSON: the accepted point ranked first (`hit`, null if none), \
      where the tap ray meets the models, and every point with its verdict (accepted, missed, \
      occluded, outside_tolerance, behind_camera, no_mesh_hit), an explanation, and its distances \
      along the ray (m), on screen (points) and from the camera (m).
      Policies: `exact` (the ray must pass through the sphere), `screen` (the centre within \
      --tolerance points of the tap, plus its projected radius, and visible; default \
      \(TapPolicy.standardScreenTolerance)), `mesh` (the point nearest where the ray meets the mesh, \
      within --tolerance × camera distance, default \(TapPolicy.standardMeshProximityFactor); does \
      not check visibility: the fallback the screen policy replaces).
      """
  )

  @Option(help: "The scene file.")
  var scene: String

  @Option(parsing: .unconditional, help: "The tap X,Y in view points.", transform: NumberPair.init(parsing:))
  var tap: NumberPair

  @Option(help: ArgumentHelp("\(TapPolicy.names.joined(separator: ", ")).", valueName: "policy"))
  var policy: String = "screen"

  @Option(help: "Screen policy: points; mesh policy: metres per metre of distance.")
  var tolerance: Double?

  @Option(
    help: "View size W,H in points (default: the scene's output size).", transform: NumberPair.init(parsing:))
  var view: NumberPair?

  @Option(
    help:
      "Interface orientation: landscape-right (image as shown), landscape-left, portrait, portrait-upside-down."
  )
  var orientation: InterfaceOrientation = .landscapeRight

  @OptionGroup var references: ReferenceAccess

  func validate() throws {
    do { _ = try TapPolicy(name: policy, tolerance: tolerance) } catch {
      throw ValidationError("--policy/--tolerance: \(error)")
    }
  }

  func run() throws {
    try reportingInputFailures {
      let tapPoint = tap.vector
      let policy: TapPolicy
      do { policy = try TapPolicy(name: self.policy, tolerance: tolerance) } catch {
        throw InputFailure(message: "--policy/--tolerance: \(error)")
      }
      let viewSize = view?.vector
      let loaded: Scene
      CommandTimeLimit.start("hit \(scene.escapedForMessage)", reading: [scene])
      do { loaded = try Scene.read(path: scene) } catch { throw InputFailure(error) }
      guard !loaded.targets.isEmpty else {
        throw InputFailure(message: "\(scene): has no named points to hit (objects[].points)")
      }
      let result: TapResult
      do {
        let tester = try loaded.tapHitTester(
          viewSize: viewSize, orientation: orientation)
        result = try tester.hitTest(tap: tapPoint, policy: policy)
      } catch { throw InputFailure(message: "\(error)") }
      try JSONOutput.write(
        SceneTapReport(
          tap: tapPoint, policyName: self.policy, tolerance: tolerance, result: result,
          scene: loaded))
    }
  }
}
