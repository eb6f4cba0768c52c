import ARHit
import ARMath
import ARScene
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
      --tolerance points of the tap, plus its projected radius, and visible; default 22), `mesh` \
      (the point nearest where the ray meets the mesh, within --tolerance × camera distance, \
      default 0.02; does not check visibility: the fallback the screen policy replaces).
      """
  )

  @Option(help: "The scene file.")
  var scene: String

  @Option(parsing: .unconditional, help: "The tap X,Y in view points.")
  var tap: String

  @Option(help: "exact, screen or mesh.")
  var policy: String = "screen"

  @Option(help: "Screen policy: points; mesh policy: metres per metre of distance.")
  var tolerance: Double?

  @Option(help: "View size W,H in points (default: the scene's output size).")
  var view: String?

  @Option(
    help:
      "Interface orientation: landscape-right (image as shown), landscape-left, portrait, portrait-upside-down."
  )
  var orientation: String = InterfaceOrientation.landscapeRight.rawValue

  func run() throws {
    try reportingInputFailures {
      let tapPoint = try numbers(tap, count: 2, option: "--tap")
      let policy = try tapPolicy()
      guard let orientation = InterfaceOrientation(rawValue: orientation) else {
        throw InputFailure(
          message:
            "--orientation: expected one of \(InterfaceOrientation.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      let viewSize = try view.map { try numbers($0, count: 2, option: "--view") }
      let loaded: Scene
      do { loaded = try Scene.load(path: scene) } catch { throw InputFailure(error) }
      guard !loaded.targets.isEmpty else {
        throw InputFailure(message: "\(scene): has no named points to hit (objects[].points)")
      }
      let result: TapResult
      do {
        let tester = try loaded.tapHitTester(
          viewSize: viewSize.map { SIMD2($0[0], $0[1]) }, orientation: orientation)
        result = try tester.hitTest(tap: SIMD2(tapPoint[0], tapPoint[1]), policy: policy)
      } catch { throw InputFailure(message: "\(error)") }
      FileHandleOutput.standardOutput.write(json(result, scene: loaded, tap: tapPoint) + "\n")
    }
  }

  private func tapPolicy() throws -> TapPolicy {
    if let tolerance, !(tolerance >= 0 && tolerance.isFinite) {
      throw InputFailure(message: "--tolerance must be a non-negative number")
    }
    switch policy {
    case "exact": return .exactSphere
    case "screen": return .screenTolerance(points: tolerance ?? 22)
    case "mesh": return .meshProximity(factor: tolerance ?? 0.02)
    default: throw InputFailure(message: "--policy: expected exact, screen or mesh, got \(policy)")
    }
  }

  private func json(_ result: TapResult, scene: Scene, tap: [Double]) -> String {
    func number(_ x: Double?) -> Any { x.map { ($0 * 1e9).rounded() / 1e9 } ?? NSNull() }
    let byCode = Dictionary(scene.targets.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
    let candidates: [[String: Any]] = result.candidates.map { c in
      let target = byCode[c.name]
      return [
        "code": c.name, "name": target?.name ?? NSNull(), "accepted": c.verdict == .accepted,
        "verdict": c.verdict.code, "explanation": c.verdict.explanation,
        "ray_distance_m": number(c.rayDistance),
        "screen_distance_pt": number(c.screenDistance), "camera_distance_m": number(c.cameraDistance),
      ]
    }
    var document: [String: Any] = [
      "tap": tap, "policy": policy, "hit": result.best ?? NSNull(), "candidates": candidates,
      "ray": [
        "origin": (0..<3).map { number(result.ray.origin[$0]) },
        "direction": (0..<3).map { number(result.ray.direction[$0]) },
      ],
    ]
    if let tolerance { document["tolerance"] = tolerance }
    if let meshHit = result.meshHit {
      document["mesh_hit"] = ["t": number(meshHit.t), "triangle": meshHit.triangle]
    } else {
      document["mesh_hit"] = NSNull()
    }
    let data = try! JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}
