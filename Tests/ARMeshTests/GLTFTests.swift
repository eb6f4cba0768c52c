import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// The glTF 2.0 reader: the shared Khronos samples against trimesh's reading of them, the
/// specification's corners (accessor types, strides, sparse accessors, strips and fans, node
/// transforms, flat normals) on assets written here, and errors that name the JSON pointer.
@Suite("glTF 2.0")
struct GLTFTests {
  struct Expected: Decodable {
    struct Sample: Decodable {
      var triangles: Int
      var bounds: [String: [Double]]
    }
    var samples: [String: Sample]
  }

  @Test(
    "the shared Khronos samples: triangles and bounds as trimesh reads them",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func samples() throws {
    let expected = try JSONDecoder().decode(
      Expected.self, from: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("gltf/trimesh-stats.json"))))
    #expect(expected.samples.count == 7)
    for (name, sample) in expected.samples {
      let asset = try ModelAsset.load(path: RealData.path("models3d/" + name))
      let stats = ModelStatistics(asset)
      #expect(stats.triangles == sample.triangles, "\(name)")
      let bounds = try #require(stats.bounds)
      for k in 0..<3 {
        #expect(abs(bounds.min[k] - sample.bounds["min"]![k]) < 1e-4, "\(name) min \(bounds.min)")
        #expect(abs(bounds.max[k] - sample.bounds["max"]![k]) < 1e-4, "\(name) max \(bounds.max)")
      }
    }
  }

  @Test("a GLB's embedded texture: the material names it, its PNG bytes come with the asset")
  func embeddedTexture() throws {
    let asset = try ModelAsset.load(path: Fixtures.path("gltf/BoxTextured.glb"))
    #expect(asset.format == .glb && asset.mesh.triangleCount == 12 && asset.mesh.texcoords.count == 24)
    let path = try #require(asset.mesh.materials.first?.diffuseTexture?.path)
    #expect(path.hasSuffix("BoxTextured.glb#/images/0"))
    #expect(asset.embeddedImages[path]?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
    // Box.glb: the root's −90° about x turns COLLADA's Z up into glTF's Y up; the material's colour.
    let box = try ModelAsset.load(path: Fixtures.path("gltf/Box.glb"))
    #expect(box.mesh.materials.first?.name == "Red" && box.mesh.materials.first!.diffuse.x > 0.7)
  }

  @Test(
    "KHR_mesh_quantization: SHORT positions and normalized BYTE normals, misaligned as the file has them",
    .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
  func quantized() throws {
    let asset = try ModelAsset.load(
      path: RealData.path("models3d/quantized_triangle_assimp_pr/triangle_mesh_quantized.gltf"))
    let m = asset.mesh
    // Its centre lies 71 m out: the vertices are kept from it (GLTFGeometry.recentringDistance).
    #expect(m.positions.indices.map(m.modelPosition) == [SIMD3(0, 0, 0), SIMD3(100, 0, 0), SIMD3(0, 100, 0)])
    #expect(m.normals == [SIMD3(0, 0, 1), SIMD3(0, 1, 0), SIMD3(1, 0, 0)])
  }

  @Test("GLB and .gltf with a data: URI read the same; a node's translation, rotation and scale apply")
  func nodeTransforms() throws {
    var asset = GLTFTestAsset.triangle()
    var nodes = asset.json["nodes"] as! [[String: Any]]
    // 90° about +y (x → −z), then scale 2, then move by (1, 2, 3).
    nodes[0]["translation"] = [1, 2, 3]
    nodes[0]["rotation"] = [0, 0.7071067811865476, 0, 0.7071067811865476]
    nodes[0]["scale"] = [2, 2, 2]
    asset.json["nodes"] = nodes
    let glb = try asset.load(asset.glb), gltf = try asset.load(asset.gltf, name: "test.gltf")
    #expect(glb.mesh.positions == gltf.mesh.positions && glb.isBinary && !gltf.isBinary)
    let p = glb.mesh.positions
    #expect(approx(p[1], [1, 2, 1]) && approx(p[2], [1, 4, 3]) && approx(p[0], [1, 2, 3]), "\(p)")
    // No normals: flat ones, the triangle's, turned with it (its +z becomes +x).
    #expect(glb.mesh.normals.allSatisfy { approx($0, [1, 0, 0]) }, "\(glb.mesh.normals)")
    #expect(glb.namedNodes.map(\.name) == ["tri"] && approx(glb.namedNodes[0].position, [1, 2, 3]))
  }

  @Test("a mirroring scale keeps the faces facing out: the winding turns")
  func mirrored() throws {
    var asset = GLTFTestAsset.triangle()
    asset.json["nodes"] = [["mesh": 0, "scale": [-1, 1, 1]]]
    let m = try asset.load(asset.glb).mesh
    #expect(
      m.indices == [0, 2, 1] && m.normals.allSatisfy { approx($0, [0, 0, 1]) }, "\(m.indices) \(m.normals)")
  }

  @Test("interleaved views, UNSIGNED_BYTE indices, normalized colours, a sparse accessor, strips and fans")
  func accessors() throws {
    var asset = GLTFTestAsset(json: [:])
    // Four vertices interleaved: position (12 bytes) then a normalized RGBA8 colour (4 bytes).
    var interleaved: [UInt8] = []
    let square: [[Float]] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]
    for (i, p) in square.enumerated() {
      for f in p { withUnsafeBytes(of: f.bitPattern.littleEndian) { interleaved += $0 } }
      interleaved += [255, UInt8(i * 85), 0, 255]
    }
    let vertices = asset.append(bytes: interleaved)
    let strip = asset.append(bytes: [0, 1, 3, 2])
    // Sparse: vertex 2's position replaced by (2, 2, 0).
    let sparseIndex = asset.append(bytes: [2])
    let sparseValue = asset.append(floats: [2, 2, 0])
    asset.json = [
      "asset": ["version": "2.0"], "scenes": [["nodes": [0]]], "nodes": [["mesh": 0]],
      "meshes": [
        [
          "primitives": [
            ["attributes": ["POSITION": 0, "COLOR_0": 1], "indices": 2, "mode": 5],
            ["attributes": ["POSITION": 3], "mode": 6],
          ]
        ]
      ],
      "accessors": [
        ["bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3"],
        [
          "bufferView": 0, "byteOffset": 12, "componentType": 5121, "normalized": true, "count": 4,
          "type": "VEC4",
        ],
        ["bufferView": 1, "componentType": 5121, "count": 4, "type": "SCALAR"],
        [
          "bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3",
          "sparse": [
            "count": 1, "indices": ["bufferView": 2, "componentType": 5121], "values": ["bufferView": 3],
          ],
        ],
      ],
      "bufferViews": [
        ["buffer": 0, "byteOffset": vertices, "byteLength": 64, "byteStride": 16],
        ["buffer": 0, "byteOffset": strip, "byteLength": 4],
        ["buffer": 0, "byteOffset": sparseIndex, "byteLength": 1],
        ["buffer": 0, "byteOffset": sparseValue, "byteLength": 12],
      ],
    ]
    let m = try asset.load(asset.glb).mesh
    // Neither has normals: flat ones, three vertices a triangle. The strip's second triangle
    // (1, 3, 2) is turned to keep the first's winding: (3, 1, 2).
    #expect(m.triangleCount == 4 && m.submeshes.count == 2 && m.vertexCount == 12)
    #expect(Array(m.positions[3..<6]) == [SIMD3(0, 1, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0)], "\(m.positions)")
    #expect(m.normals.allSatisfy { approx($0, [0, 0, 1]) })
    #expect(approx(m.colors[1], [1, 85 / 255, 0]) && approx(m.colors[3], [1, 1, 0]))
    // The fan's first triangle (0, 1, 2): its third vertex is the sparse one.
    #expect(approx(m.positions[6 + 2], [2, 2, 0]), "\(m.positions)")
  }

  @Test(
    "broken assets are errors naming the file, the JSON pointer and why",
    arguments: [
      (
        "accessor past its view",
        "/accessors/0/count: 3 elements of 12 bytes from byte 0 need 36 bytes, the buffer view has 24"
      ),
      ("index past the vertices", "/accessors/1: index 7 at 2 is past the primitive's 3 vertices"),
      ("a cycle", "/nodes/1/children/0: a cycle in the node graph back to node 0"),
      (
        "required extension",
        "/extensionsRequired/0: EXT_meshopt_compression is required and ARScene does not support it"
      ),
      ("missing buffer file", "/buffers/0/uri: 'missing.bin': "),
      ("truncated GLB", "GLB header: declares"),
      ("version 1", "/asset/version: '1.0' is not glTF 2"),
      ("bad matrix", "/nodes/0/matrix: expected 16 finite numbers"),
    ])
  func broken(_ case: String, _ message: String) throws {
    var asset = GLTFTestAsset.triangle()
    var bytes: [UInt8]?
    switch `case` {
    case "accessor past its view": asset.json["bufferViews"] = [["buffer": 0, "byteLength": 24]]
    case "index past the vertices":
      let offset = asset.append(uint16s: [0, 1, 7, 0])
      var views = asset.json["bufferViews"] as! [[String: Any]]
      views.append(["buffer": 0, "byteOffset": offset, "byteLength": 6])
      asset.json["bufferViews"] = views
      var accessors = asset.json["accessors"] as! [[String: Any]]
      accessors.append(["bufferView": 1, "componentType": 5123, "count": 3, "type": "SCALAR"])
      asset.json["accessors"] = accessors
      asset.json["meshes"] = [["primitives": [["attributes": ["POSITION": 0], "indices": 1]]]]
    case "a cycle": asset.json["nodes"] = [["mesh": 0, "children": [1]], ["children": [0]]]
    case "required extension":
      asset.json["extensionsUsed"] = ["EXT_meshopt_compression"]
      asset.json["extensionsRequired"] = ["EXT_meshopt_compression"]
    case "missing buffer file": asset.json["buffers"] = [["uri": "missing.bin", "byteLength": 36]]
    case "truncated GLB": bytes = Array(asset.glb.dropLast(8))
    case "version 1": asset.json["asset"] = ["version": "1.0"]
    default: asset.json["nodes"] = [["mesh": 0, "matrix": [1, 0, 0]]]
    }
    #expect {
      _ = try asset.load(bytes ?? asset.glb)
    } throws: { error in
      "\(error)".hasPrefix("test.glb: ") && "\(error)".contains(message)
    }
  }

  @Test("a meshopt-compressed GLB with no decoder registered (ARMesh alone) is an error naming the extension")
  func meshoptWithoutDecoder() throws {
    #expect {
      _ = try ModelAsset.load(path: Fixtures.path("gltf/BoxTextured-meshopt.glb"))
    } throws: { error in
      "\(error)".contains(
        "/extensionsRequired/1: EXT_meshopt_compression is required and ARScene does not support it")
    }
  }

  @Test("a file that is no model is an error, never an empty OBJ")
  func notAModel() throws {
    let folder = try TemporaryFolder()
    for (name, bytes, message) in [
      ("scene.json", Array(#"{"objects": []}"#.utf8), "not an OBJ model"),
      ("image.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "binary data"),
      ("cube.usdz", [0x50, 0x4B, 0x03, 0x04, 0, 0], "zip: a truncated local header at byte 0"),
    ] as [(String, [UInt8], String)] {
      let path = folder.path + "/" + name
      FileManager.default.createFile(atPath: path, contents: Data(bytes))
      #expect { _ = try ModelAsset.load(path: path, lenient: true) } throws: { "\($0)".contains(message) }
    }
  }

  private func approx(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Bool { ((a - b) * (a - b)).sum() < 1e-10 }
  private func approx(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool { ((a - b) * (a - b)).sum() < 1e-10 }
}

/// Animated and skinned glTF at a time, against an independent evaluation of the
/// specification's formulas in numpy (`Tools/peers/gltf_pose.py`: its own accessor reading,
/// interpolation, node transforms and linear blend skinning).
@Suite("glTF animation and skinning")
struct GLTFAnimationTests {
  static let python = "/usr/bin/python3"
  static var numpy: Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", "import numpy"]
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExitPromptly()
    return process.terminationStatus == 0
  }

  struct Pose: Decodable {
    var positions: [[Double]]
    var min: [Double], max: [Double]
  }

  static func oracle(_ file: String, time: Double) throws -> Pose {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Fixtures.root + "/../../Tools/peers/gltf_pose.py", file, "\(time)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExitPromptly()
    return try JSONDecoder().decode(Pose.self, from: data)
  }

  @Test(
    "SimpleSkin, CesiumMan and Fox at several times: every vertex where numpy's evaluation puts it",
    .enabled(if: RealData.available && numpy, Comment(rawValue: RealData.absent + " (or no numpy)")),
    arguments: [
      ("SimpleSkin/simple_skin.gltf", [0, 0.5, 1.25, 5.5, 9]),
      ("CesiumMan/glTF-Binary/CesiumMan.glb", [0.7, 1.5]),
      ("Fox/glTF/Fox.gltf", [1.3]),
    ])
  func skinned(_ name: String, _ times: [Double]) throws {
    let file = RealData.path("models3d/khronos_via_draco/" + name)
    for time in times {
      let expected = try Self.oracle(file, time: time)
      let mesh = try GLTFAsset.load(path: file, time: time).mesh
      let scale = Swift.max(1, (0..<3).map { expected.max[$0] - expected.min[$0] }.max()!)
      let tolerance = 2e-6 * scale
      let bounds = mesh.bounds
      for k in 0..<3 {
        #expect(
          abs(Double(bounds.min[k]) + mesh.origin[k] - expected.min[k]) < tolerance, "\(name) t=\(time)")
        #expect(
          abs(Double(bounds.max[k]) + mesh.origin[k] - expected.max[k]) < tolerance, "\(name) t=\(time)")
      }
      // Each of our vertices (flat-shaded ones repeat theirs) is one of numpy's.
      let theirs = expected.positions.map { SIMD3($0[0], $0[1], $0[2]) }
      var worst = 0.0
      for i in stride(from: 0, to: mesh.vertexCount, by: Swift.max(1, mesh.vertexCount / 300)) {
        let ours = mesh.modelPosition(i)
        worst = Swift.max(worst, theirs.map { (($0 - ours) * ($0 - ours)).sum() }.min()!.squareRoot())
      }
      #expect(worst < tolerance, "\(name) t=\(time): \(worst)")
    }
  }

  @Test(
    "CUBICSPLINE translation, STEP scale and a weighted morph target on a triangle, at times between keys",
    .enabled(if: numpy, "numpy (python3-numpy) is absent"))
  func interpolation() throws {
    var asset = GLTFTestAsset.triangle()
    let times = asset.append(floats: [0, 1, 3])
    // Cubic: (in-tangent, value, out-tangent) a key.
    let cubic = asset.append(floats: [
      0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 2, 0, 3, 1, 0, 0, 0, 1, 0, 0, 0, 2, 2, 2, 0, 0, 0,
    ])
    let steps = asset.append(floats: [1, 1, 1, 2, 2, 2, 3, 3, 3])
    let morph = asset.append(floats: [0, 0, 1, 0, 0, 1, 0, 0, 1])
    var views = asset.json["bufferViews"] as! [[String: Any]]
    var accessors = asset.json["accessors"] as! [[String: Any]]
    for (offset, length, count, type) in [
      (times, 12, 3, "SCALAR"), (cubic, 108, 9, "VEC3"), (steps, 36, 3, "VEC3"), (morph, 36, 3, "VEC3"),
    ] {
      views.append(["buffer": 0, "byteOffset": offset, "byteLength": length])
      accessors.append(["bufferView": views.count - 1, "componentType": 5126, "count": count, "type": type])
    }
    asset.json["bufferViews"] = views
    asset.json["accessors"] = accessors
    asset.json["meshes"] = [
      ["primitives": [["attributes": ["POSITION": 0], "targets": [["POSITION": 4]]]], "weights": [0.5]]
    ]
    asset.json["animations"] = [
      [
        "channels": [
          ["sampler": 0, "target": ["node": 0, "path": "translation"]],
          ["sampler": 1, "target": ["node": 0, "path": "scale"]],
        ],
        "samplers": [
          ["input": 1, "output": 2, "interpolation": "CUBICSPLINE"],
          ["input": 1, "output": 3, "interpolation": "STEP"],
        ],
      ]
    ]
    let folder = try TemporaryFolder()
    let path = folder.path + "/animated.glb"
    FileManager.default.createFile(atPath: path, contents: Data(asset.glb))
    for time in [0.25, 1.0, 1.7, 2.9, 4] {
      let expected = try Self.oracle(path, time: time)
      let mesh = try GLTFAsset.load(path: path, time: time).mesh
      for (i, p) in expected.positions.enumerated() {
        let ours = mesh.modelPosition(i)
        #expect(
          ((SIMD3(p[0], p[1], p[2]) - ours) * (SIMD3(p[0], p[1], p[2]) - ours)).sum() < 1e-10,
          "t=\(time) \(i)")
      }
    }
  }
}
