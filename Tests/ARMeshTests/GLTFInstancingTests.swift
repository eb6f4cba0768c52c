import ARMath
import Foundation
import Testing

@testable import ARMesh

/// `EXT_mesh_gpu_instancing`: a node's mesh drawn once an instance, each placed by its own
/// translation, rotation and scale within the node (as Khronos' SimpleInstancing sample, 125
/// cubes).
@Suite("glTF GPU instancing")
struct GLTFInstancingTests {
  /// The test triangle, its node placed at (0, 0, 10) and instanced over a 5 × 5 × 5 grid, each
  /// turned about z by 10° an instance and scaled by 1 + i/125.
  static func grid(attributes: [String] = ["TRANSLATION", "ROTATION", "SCALE"]) -> (
    GLTFTestAsset, [Matrix4<Double>]
  ) {
    var asset = GLTFTestAsset.triangle()
    var translations: [Float] = [], rotations: [Float] = [], scales: [Float] = []
    var expected: [Matrix4<Double>] = []
    for i in 0..<125 {
      let t = SIMD3(Double(i % 5) * 2, Double(i / 5 % 5) * 2, Double(i / 25) * 2)
      let angle = Double(i) * 10 * .pi / 180
      let q = SIMD4(0, 0, Double.sin(angle / 2), Double.cos(angle / 2))
      let s = 1 + Double(i) / 125
      translations += [Float(t.x), Float(t.y), Float(t.z)]
      rotations += q.toArray().map(Float.init)
      scales += [Float(s), Float(s), Float(s)]
      var m = Matrix4<Double>.translation([0, 0, 10])
      if attributes.contains("TRANSLATION") { m = m * .translation(t) }
      if attributes.contains("ROTATION") {
        m =
          m
          * Matrix4(
            linear: Quaternion(vector: SIMD4(q.x, q.y, Double(Float(q.z)), Double(Float(q.w))))
              .normalizedOrNil()!.matrix, translation: .zero)
      }
      if attributes.contains("SCALE") { m = m * .scale(SIMD3(repeating: Double(Float(s)))) }
      expected.append(m)
    }
    var accessorsJSON = asset.json["accessors"] as! [[String: Any]]
    var views = asset.json["bufferViews"] as! [[String: Any]]
    var named: [String: Int] = [:]
    for (name, values, type) in [
      ("TRANSLATION", translations, "VEC3"), ("ROTATION", rotations, "VEC4"), ("SCALE", scales, "VEC3"),
    ] where attributes.contains(name) {
      let offset = asset.append(floats: values)
      views.append(["buffer": 0, "byteOffset": offset, "byteLength": values.count * 4])
      accessorsJSON.append(["bufferView": views.count - 1, "componentType": 5126, "count": 125, "type": type])
      named[name] = accessorsJSON.count - 1
    }
    asset.json["accessors"] = accessorsJSON
    asset.json["bufferViews"] = views
    asset.json["nodes"] = [
      [
        "mesh": 0, "name": "tri", "translation": [0, 0, 10],
        "extensions": ["EXT_mesh_gpu_instancing": ["attributes": named]],
      ]
    ]
    asset.json["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
    asset.json["extensionsRequired"] = ["EXT_mesh_gpu_instancing"]
    return (asset, expected)
  }

  @Test(
    "125 instances drawn, each vertex where its instance's TRS puts it",
    arguments: [["TRANSLATION", "ROTATION", "SCALE"], ["TRANSLATION"], ["ROTATION", "SCALE"]])
  func instances(_ attributes: [String]) throws {
    let (asset, expected) = Self.grid(attributes: attributes)
    let model = try asset.load(asset.glb)
    #expect(model.mesh.triangleCount == 125 && model.warnings.isEmpty)
    let ours = (0..<model.mesh.vertexCount).map { model.mesh.modelPosition($0) }
    let corners: [SIMD3<Double>] = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    for (i, m) in expected.enumerated() {
      for corner in corners {
        let p = m.transformPoint(corner)
        let nearest = ours.map { (($0 - p) * ($0 - p)).sum() }.min()!.squareRoot()
        #expect(nearest < 1e-5, "instance \(i): \(p)")
      }
    }
  }

  @Test("instance attributes of different counts, or one glTF does not define: errors naming the pointer")
  func badInstances() throws {
    var (asset, _) = Self.grid()
    var accessors = asset.json["accessors"] as! [[String: Any]]
    accessors[2]["count"] = 100
    asset.json["accessors"] = accessors
    #expect(throws: GLTFError.self) { _ = try asset.load(asset.glb) }
    do { _ = try asset.load(asset.glb) } catch {
      #expect("\(error)".contains("/nodes/0/extensions/EXT_mesh_gpu_instancing/attributes/"), "\(error)")
    }
    (asset, _) = Self.grid(attributes: ["TRANSLATION"])
    asset.json["nodes"] = [
      ["mesh": 0, "extensions": ["EXT_mesh_gpu_instancing": ["attributes": ["SHEAR": 1]]]]
    ]
    #expect(throws: GLTFError.self) { _ = try asset.load(asset.glb) }
  }
}

/// A hostile instancing: few bytes asking for more vertices than memory holds.
@Suite("glTF GPU instancing limits")
struct GLTFInstancingLimitTests {
  @Test("600,000 instances of a 100-vertex mesh (60 million vertices) are refused before any copy")
  func tooManyVertices() throws {
    var asset = GLTFTestAsset.triangle()
    let points = asset.append(floats: [Float](repeating: 0, count: 300))
    let translations = asset.append(floats: [Float](repeating: 1, count: 3 * 600_000))
    asset.json["bufferViews"] = [
      ["buffer": 0, "byteOffset": points, "byteLength": 1200],
      ["buffer": 0, "byteOffset": translations, "byteLength": 12 * 600_000],
    ]
    asset.json["accessors"] = [
      ["bufferView": 0, "componentType": 5126, "count": 100, "type": "VEC3"],
      ["bufferView": 1, "componentType": 5126, "count": 600_000, "type": "VEC3"],
    ]
    asset.json["nodes"] = [
      ["mesh": 0, "extensions": ["EXT_mesh_gpu_instancing": ["attributes": ["TRANSLATION": 1]]]]
    ]
    #expect(throws: GLTFError.self) { _ = try asset.load(asset.glb) }
    do { _ = try asset.load(asset.glb) } catch {
      #expect("\(error)".contains("600000 instances of 100 vertices"), "\(error)")
    }
  }
}

extension SIMD4 where Scalar == Double {
  fileprivate func toArray() -> [Double] { [x, y, z, w] }
}
