import ARMath
import ARPose
import Foundation
import Testing

@Suite("Marker poses as JSON and across camera conventions")
struct PoseEncodingTests {
  let pose = try! SquareMarker.pose(
    corners: [[300, 200], [380, 205], [375, 280], [295, 275]], size: 0.1,
    intrinsics: Pinhole(fx: 800, fy: 800, cx: 320, cy: 240))

  @Test("expressing in ARKit's convention flips y and z, and back again gives the pose")
  func conventions() throws {
    let best = pose.solutions[0]
    let arkit = best.expressed(in: .arkit)
    #expect(arkit.convention == .arkit)
    #expect(arkit.translation == SIMD3(best.translation.x, -best.translation.y, -best.translation.z))
    let back = arkit.expressed(in: .opencv)
    #expect((back.translation - best.translation).length < 1e-15)
    #expect(zip(back.covariance, best.covariance).allSatisfy { $0 == $1 })
    // Sigmas are about the axes: their sizes do not change with the flip.
    #expect(arkit.translationSigma == best.translationSigma && arkit.rotationSigma == best.rotationSigma)
  }

  @Test("the JSON has the CLI contract's keys, rotation as rows")
  func json() throws {
    let data = try JSONEncoder().encode(pose)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(Set(object.keys) == ["solutions", "ambiguous"])
    let first = try #require((object["solutions"] as? [[String: Any]])?.first)
    #expect(
      Set(first.keys) == [
        "rotation", "translation", "reprojection_error_px", "rotation_sigma_rad", "translation_sigma_m",
      ])
    let rows = try #require(first["rotation"] as? [[Double]])
    let r = pose.solutions[0].rotation
    // Row 1, column 0 and row 0, column 1 (the subscript takes the column first).
    #expect(abs(rows[1][0] - r[0, 1]) < 1e-15 && abs(rows[0][1] - r[1, 0]) < 1e-15, "\(rows) against \(r)")
  }
}
