import ARTestSupport
import Foundation
import Testing

/// `simulate --geo-pose-optimism` and `validate`'s `geo_pose_claims`, end to end.
@Suite("arscene simulate and validate: the platform's geo pose claims")
struct GeoPoseCommandTests {
  @Test(
    "a walk with geo poses three times too sure of themselves: validate reports every one, mostly outside its claim"
  )
  func optimisticClaims() throws {
    let folder = try TemporaryFolder()
    let scene = ArsceneRunner.packageRoot.path + "/Scenes/zavist.json"
    let walk = try ArsceneRunner.simulatedWalk(
      scene: scene, seed: 4, duration: 20, in: folder, options: ["--geo-pose-optimism", "3"])
    let text = try String(contentsOfFile: walk, encoding: .utf8)
    #expect(text.split(separator: "\n").filter { $0.contains(#""type":"geo_pose""#) }.count == 201)
    let run = try ArsceneRunner.run(["validate", walk, "--scene", scene])
    #expect(run.status == 0, "\(run.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let claims = try #require(report["geo_pose_claims"] as? [String: Any])
    #expect(claims["poses"] as? Int == 201 && claims["expected_within"] as? Double == 0.68)
    let horizontal = try #require(claims["horizontal"] as? [String: Any])
    #expect((horizontal["within_claimed"] as? Double ?? 1) < 0.3)
    let bad = try ArsceneRunner.run([
      "simulate", "--scene", scene, "--seed", "1", "--duration", "5", "-o", folder.path + "/x.jsonl",
      "--geo-pose-optimism", "0",
    ])
    #expect(bad.status == 64 && bad.stderr.contains("--geo-pose-optimism"))
  }
}
