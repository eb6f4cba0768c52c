import ARImage
import ARImageIO
import ARMesh
import ARTestSupport
import Foundation
import Testing

/// `arscene obj stats` and `arscene obj convert` end to end.
@Suite("arscene obj")
struct OBJCommandTests {
  @Test("stats prints the JSON counts")
  func stats() throws {
    let outcome = try ArsceneRunner.run(["obj", "stats", Fixtures.path("obj/groups_materials.obj")])
    #expect(outcome.status == 0 && outcome.stderr == "")
    let stats = try JSONDecoder().decode(OBJStatistics.self, from: Data(outcome.stdout.utf8))
    #expect(
      stats.vertices == 9 && stats.faces == 4 && stats.triangles == 4 && stats.objects == 2
        && stats.groups == 2)
    #expect(stats.materials == ["oak wood", "thatch"])
    #expect(stats.bounds == OBJStatistics.Bounds(min: [0, 0, 0], max: [3, 3, 0]))
    #expect(outcome.stdout.contains("\"used_materials\""))
  }

  @Test("bad files exit 2 with one line naming file, line and column")
  func badFiles() throws {
    let path = Fixtures.path("obj/bad/index_range.obj")
    let outcome = try ArsceneRunner.run(["obj", "stats", path])
    #expect(outcome.status == 2 && outcome.stdout == "")
    #expect(
      outcome.stderr
        == "arscene: \(path):4:7: bad index '4': refers to vertex 4, but only 3 defined before this line\n")
    let missing = try ArsceneRunner.run(["obj", "stats", Fixtures.path("obj/bad/missing_mtl.obj")])
    #expect(missing.status == 2 && missing.stderr.contains("material library 'nowhere.mtl' not found"))
    let lenient = try ArsceneRunner.run([
      "obj", "stats", "--lenient", Fixtures.path("obj/bad/missing_mtl.obj"),
    ])
    #expect(
      lenient.status == 0 && lenient.stderr.contains("warning: material library 'nowhere.mtl' not found"))
  }

  @Test("convert writes a triangulated OBJ and its MTL that read back the same; failures write nothing")
  func convert() throws {
    let dir = NSTemporaryDirectory() + "arscene-obj-\(UInt64.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let input = Fixtures.path("obj/textured.obj")
    let outcome = try ArsceneRunner.run(["obj", "convert", input, dir + "/copy.obj"])
    #expect(outcome.status == 0 && outcome.stderr == "")
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir)) == ["copy.obj", "copy.mtl"])
    let original = try OBJAsset.load(path: input).mesh
    let copy = try OBJAsset.load(path: dir + "/copy.obj")
    #expect(copy.mesh.positions == original.positions && copy.mesh.indices == original.indices)
    #expect(copy.libraryMaterials[0].diffuseTexture?.path == Fixtures.path("obj/textures/checker board.png"))
    #expect(copy.libraryMaterials[0].diffuseTexture?.scale == [2, 2, 1])

    let failed = try ArsceneRunner.run(["obj", "convert", Fixtures.path("obj/bad/nan.obj"), dir + "/bad.obj"])
    #expect(failed.status == 2 && failed.stderr.contains("'nan' is not a finite number"))
    #expect(
      !FileManager.default.fileExists(atPath: dir + "/bad.obj")
        && !FileManager.default.fileExists(atPath: dir + "/bad.mtl"))
  }
}
