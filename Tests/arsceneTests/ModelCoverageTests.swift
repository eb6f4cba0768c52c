import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `arscene render --model FILE --shading unlit` against Mesa's llvmpipe drawing trimesh's
/// reading of the same file (pyrender on OSMesa, `Tools/peers/pyrender_coverage.py`): the same
/// pinhole, placed from the model's own bounds, looking at it from above one side.
@Suite(
  "Models' coverage against llvmpipe",
  .enabled(if: PyrenderPeer.available, "needs pyrender (Tools/test installs it) and Mesa's OSMesa"))
struct ModelCoverageTests {
  static let (width, height) = (320, 240)

  /// The pixels covered by us and by llvmpipe, for `model` seen from 2.5 bounding radii away.
  static func coverage(_ model: String) throws -> (ours: Set<Int>, llvmpipe: Set<Int>) {
    let stats = try ModelCommandTests.stats(model)
    let bounds = try #require(stats["bounds"] as? [String: [Double]])
    let (low, high) = (try #require(bounds["min"]), try #require(bounds["max"]))
    let centre = zip(low, high).map { ($0 + $1) / 2 }
    let radius = zip(low, high).map { ($1 - $0) * ($1 - $0) }.reduce(0, +).squareRoot() / 2
    // The camera's axes (right, up, back) as columns, then its position: column-major.
    let back = normalized([0.5, 0.4, 0.75])
    let right = normalized(cross([0, 1, 0], back))
    let up = cross(back, right)
    let eye = zip(centre, back).map { $0 + $1 * radius * 2.5 }
    let pose = (right + [0] + up + [0] + back + [0] + eye + [1]).map { "\($0)" }.joined(separator: ",")
    let focal = Double(width)
    let folder = try TemporaryFolder()
    let outcome = try ArsceneRunner.run([
      "render", "--model", model, "--size", "\(width),\(height)",
      "--intrinsics", "\(focal),\(focal),\(width / 2),\(height / 2)", "--world-from-camera", pose,
      "--near", "\(radius * 0.05)", "--far", "\(radius * 10)", "--shading", "unlit", "-o",
      folder.path + "/ours.png",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(folder.path + "/ours.png")
    let ours = Set((0..<(width * height)).filter { image[$0 % width, $0 / width].x > 127 })
    let run = try PythonPeer.runScript(
      PythonPeer.packageRoot + "/Tools/peers/pyrender_coverage.py",
      arguments: [model, "\(width)", "\(height)", "\(focal)", "\(focal)", pose],
      packages: ["pyrender", "trimesh"])
    #expect(run.status == 0)
    let rows = run.output.split(separator: "\n")
    #expect(rows.count == height)
    var llvmpipe = Set<Int>()
    for (y, row) in rows.enumerated() {
      for (x, c) in row.utf8.enumerated() where c == UInt8(ascii: "1") { llvmpipe.insert(y * width + x) }
    }
    return (ours, llvmpipe)
  }

  static func normalized(_ v: [Double]) -> [Double] {
    let length = v.map { $0 * $0 }.reduce(0, +).squareRoot()
    return v.map { $0 / length }
  }

  static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
  }

  static func check(_ model: String) throws {
    let (ours, llvmpipe) = try coverage(model)
    let covered = Double(ours.intersection(llvmpipe).count) / Double(Swift.max(llvmpipe.count, 1))
    let extra = Double(ours.subtracting(llvmpipe).count) / Double(Swift.max(llvmpipe.count, 1))
    // Measured: every pixel the same on every model here.
    #expect(
      llvmpipe.count > 2_000 && covered >= 0.995 && extra <= 0.005,
      "\(model): \(llvmpipe.count) pixels drawn by llvmpipe, \(covered) of them by us, \(extra) more")
  }

  @Test(
    "the repository's GLBs: Khronos Box and BoxTextured, the shipped hand (a wrist cap of mixed winding), nine spheres",
    arguments: [
      "gltf/Box.glb", "gltf/BoxTextured.glb", "../../Scenes/models/hand-right.glb", "pbr/spheres.glb",
    ])
  func repository(_ model: String) throws {
    try Self.check(Fixtures.path(model))
  }

  @Test(
    "the shared Khronos samples, skinned ones in their bind pose: CesiumMan, Fox, SimpleSkin",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)),
    arguments: [
      "models3d/khronos_via_draco/CesiumMan/glTF-Binary/CesiumMan.glb",
      "models3d/khronos_via_draco/Fox/glTF/Fox.gltf",
      "models3d/khronos_via_draco/SimpleSkin/simple_skin.gltf",
    ])
  func shared(_ model: String) throws {
    try Self.check(RealData.path(model))
  }
}
