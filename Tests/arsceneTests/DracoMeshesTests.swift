import ARTestSupport
import Foundation
import Testing

/// GLBs of several Draco-compressed meshes, whose primitives are decoded side by side before
/// the scene is built: every one drawn where its node puts it, and a broken one still named
/// by its own JSON pointer.
@Suite("arscene with several Draco-compressed meshes")
struct DracoMeshesTests {
  /// `Box_Draco.glb` (one Draco primitive) with its JSON changed by `edit`, its binary kept.
  static func editedBox(_ edit: (inout [String: Any]) -> Void) throws -> [UInt8] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gltf/Box_Draco.glb"))))
    func word(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    let jsonLength = word(12)
    var document = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes[20..<20 + jsonLength])) as? [String: Any])
    edit(&document)
    var json = [UInt8](try JSONSerialization.data(withJSONObject: document))
    while json.count % 4 != 0 { json.append(0x20) }
    let binary = bytes[(20 + jsonLength)...]
    func le(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    return Array("glTF".utf8) + le(2) + le(12 + 8 + json.count + binary.count) + le(json.count)
      + Array("JSON".utf8) + json + binary
  }

  /// The box's mesh three times, on nodes 2 m apart along x (as `Boxes_Draco.glb`), mesh 1's
  /// Draco bytes from `view` (0: the box's own).
  static func threeBoxes(meshOneView view: Int) throws -> [UInt8] {
    try editedBox { document in
      var meshes = document["meshes"] as! [[String: Any]]
      meshes = [meshes[0], meshes[0], meshes[0]]
      var primitive = (meshes[1]["primitives"] as! [[String: Any]])[0]
      var extensions = primitive["extensions"] as! [String: Any]
      var draco = extensions["KHR_draco_mesh_compression"] as! [String: Any]
      draco["bufferView"] = view
      extensions["KHR_draco_mesh_compression"] = draco
      primitive["extensions"] = extensions
      meshes[1]["primitives"] = [primitive]
      document["meshes"] = meshes
      document["nodes"] = (0..<3).map { ["mesh": $0, "translation": [2.0 * Double($0), 0, 0]] }
      document["scenes"] = [["nodes": [0, 1, 2]]]
      // A view inside the buffer that skips the Draco header: bytes no decoder reads.
      var views = document["bufferViews"] as! [[String: Any]]
      views.append(["buffer": 0, "byteOffset": 8, "byteLength": 100])
      document["bufferViews"] = views
    }
  }

  @Test("Boxes_Draco.glb, three Draco meshes: 36 triangles, boxes from x = -0.5 to 4.5 m")
  func threeMeshes() throws {
    let outcome = try ArsceneRunner.run(["model", "stats", Fixtures.path("gltf/Boxes_Draco.glb")])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(json["triangles"] as? Int == 36 && json["meshes"] as? Int == 3)
    let bounds = try #require(json["bounds"] as? [String: [Double]])
    let (low, high) = (try #require(bounds["min"]), try #require(bounds["max"]))
    for (k, (a, b)) in [(-0.5, 4.5), (-0.5, 0.5), (-0.5, 0.5)].enumerated() {
      #expect(abs(low[k] - a) < 1e-6 && abs(high[k] - b) < 1e-6, "\(bounds)")
    }
  }

  @Test("a Draco mesh drawn by two nodes and another by one: 36 triangles, each box where its node puts it")
  func sharedMesh() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/shared.glb"
    let bytes = try Self.editedBox { document in
      let mesh = (document["meshes"] as! [[String: Any]])[0]
      document["meshes"] = [mesh, mesh]
      document["nodes"] = [0, 1, 0].enumerated().map {
        ["mesh": $1, "translation": [0, 2.0 * Double($0), 0]]
      }
      document["scenes"] = [["nodes": [0, 1, 2]]]
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let outcome = try ArsceneRunner.run(["model", "stats", path])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(json["triangles"] as? Int == 36)
    let bounds = try #require(json["bounds"] as? [String: [Double]])
    #expect(bounds["min"] == [-0.5, -0.5, -0.5] && bounds["max"] == [0.5, 4.5, 0.5], "\(bounds)")
  }

  @Test("a mesh whose Draco bytes are broken, between two good ones: exit 2 naming its pointer")
  func brokenMesh() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/broken.glb"
    try Data(try Self.threeBoxes(meshOneView: 1)).write(to: URL(fileURLWithPath: path))
    let outcome = try ArsceneRunner.run(["model", "stats", path])
    #expect(outcome.status == 2)
    #expect(
      outcome.stderr.contains("/meshes/1/primitives/0/extensions/KHR_draco_mesh_compression")
        && outcome.stderr.contains("not a valid Draco mesh"), "\(outcome.stderr)")
  }

  @Test("accessor counts that disagree with the Draco mesh: the decoded box drawn, each mismatch named once")
  func countsDisagree() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/lying-counts.glb"
    let bytes = try Self.editedBox { document in
      let mesh = (document["meshes"] as! [[String: Any]])[0]
      let primitive = (mesh["primitives"] as! [[String: Any]])[0]
      let attributes = primitive["attributes"] as! [String: Int]
      var accessors = document["accessors"] as! [[String: Any]]
      accessors[attributes["POSITION"]!]["count"] = 30
      accessors[primitive["indices"] as! Int]["count"] = 33
      document["accessors"] = accessors
      // The mesh drawn by two nodes: its notes once.
      document["nodes"] = [["mesh": 0], ["mesh": 0, "translation": [0, 2.0, 0]]]
      document["scenes"] = [["nodes": [0, 1]]]
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let outcome = try ArsceneRunner.run(["model", "stats", path])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(json["triangles"] as? Int == 24 && json["vertices"] as? Int == 48)
    let lines = outcome.stderr.split(separator: "\n")
    let position = lines.filter {
      $0.contains("/meshes/0/primitives/0/attributes/POSITION: the accessor's count is 30")
    }
    let indices = lines.filter { $0.contains("/meshes/0/primitives/0/indices: the accessor's count is 33") }
    #expect(position.count == 1 && position[0].contains("decodes 24 points"), "\(outcome.stderr)")
    #expect(indices.count == 1 && indices[0].contains("decodes 36 indices"), "\(outcome.stderr)")
    // As the file says (the Khronos box's own counts), not a word.
    let honest = try ArsceneRunner.run(["model", "stats", Fixtures.path("gltf/Box_Draco.glb")])
    #expect(honest.status == 0 && !honest.stderr.contains("count is"), "\(honest.stderr)")
  }
}
