import ARMath
import ARPose
import ARTestSupport
import Testing

/// The example of ARPose's Getting Started article (ARPose.docc), kept compiling and correct.
@Test("README pose example")
func readmePoseExample() throws {
  let k = Pinhole<Double>(fx: 1000, fy: 1000, cx: 960, cy: 720)
  let card = try SquareMarker.pose(
    corners: [[900, 660], [1020, 662], [1018, 780], [902, 778]], size: 0.06, intrinsics: k)
  let cameraFromMarker = card.solutions[0].cameraFromTarget
  #expect(abs(cameraFromMarker.translation.z - 0.5) < 0.01)  // 6 cm seen 120 px wide at f = 1000: 0.5 m
  let planes = try PlaneDetector(threshold: 0.01).detect(
    PointCloud.read(path: Fixtures.root + "/../../Scenes/data/table-scan.xyz"))
  let table = try #require(planes.first { abs($0.offset - 0.74) < 0.01 })
  #expect(table.classification == .horizontal)
  #expect(
    abs(max(table.width, table.length) - 0.9) < 0.06 && abs(min(table.width, table.length) - 0.6) < 0.05)
  let fit = try TrajectoryAlignment.umeyama(
    source: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], target: [[1, 0, 0], [1, 0, -1], [2, 0, 0]])
  #expect(fit.rms < 1e-12)
}
