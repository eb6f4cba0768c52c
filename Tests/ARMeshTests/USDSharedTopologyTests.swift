import Testing

@testable import ARMesh

/// Meshes that share their topology's arrays, as a crate stores a kit's repeated parts (one
/// `faceVertexCounts` and one `faceVertexIndices` array, decoded once): their fans are made once
/// (``USDFanCache``), and each mesh must still get its own orientation's winding and its own
/// points' check.
@Suite("USD meshes sharing one topology")
struct USDSharedTopologyTests {
  /// A quad and a triangle over five points.
  static let counts: [Int64] = [4, 3]
  static let indices: [Int64] = [0, 1, 2, 3, 1, 4, 2]

  /// A stage (metres, Y up) of faceted `meshes`, each a prim path, its points and whether it is
  /// left-handed, every one holding the very same count and index arrays.
  static func stage(_ meshes: [(prim: String, points: [SIMD3<Double>], leftHanded: Bool)]) -> USDStageReader {
    var layer = USDLayer(path: "kit.usdc")
    layer.metersPerUnit = 1
    for mesh in meshes {
      layer.prims.append((mesh.prim, "Mesh"))
      layer.values[mesh.prim + ".points"] = .vectors(Vector3Array(mesh.points))
      layer.values[mesh.prim + ".faceVertexCounts"] = .ints(counts)
      layer.values[mesh.prim + ".faceVertexIndices"] = .ints(indices)
      layer.values[mesh.prim + ".subdivisionScheme"] = .token("none")
      if mesh.leftHanded { layer.values[mesh.prim + ".orientation"] = .token("leftHanded") }
    }
    return USDStageReader(layer)
  }

  /// Five points moved by `x` metres; `extra` more past them that no face uses.
  static func points(_ x: Double, extra: Int = 0) -> [SIMD3<Double>] {
    [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(1, 1, 0), SIMD3(0, 1, 0), SIMD3(2, 0, 0)].map {
      $0 + SIMD3(x, 0, 0)
    }
      + (0..<extra).map { SIMD3(x, 0, Double($0 + 1)) }
  }

  @Test("each mesh's triangles wind by its own orientation over its own points")
  func windings() throws {
    let mesh = try Self.stage([
      ("/Kit/A", Self.points(0), false), ("/Kit/B", Self.points(10), true),
      ("/Kit/C", Self.points(20, extra: 3), false), ("/Kit/D", Self.points(30), false),
    ]).build().mesh
    let right: [[Int]] = [[0, 1, 2], [0, 2, 3], [1, 4, 2]]
    let left: [[Int]] = [[0, 2, 1], [0, 3, 2], [1, 2, 4]]
    let expected = [(0.0, right), (10, left), (20, right), (30, right)].flatMap { x, fans in
      fans.map { fan in fan.map { Self.points(x)[$0] } }
    }
    #expect(mesh.triangleCount == expected.count)
    for (t, corners) in expected.enumerated() {
      for k in 0..<3 {
        let p = mesh.modelPosition(Int(mesh.indices[3 * t + k]))
        #expect(((p - corners[k]) * (p - corners[k])).sum() < 1e-12, "triangle \(t), corner \(k): \(p)")
      }
    }
  }

  @Test("a mesh whose points are too few for the shared indices is refused by name, whichever comes first")
  func shortPoints() throws {
    let short = Array(Self.points(5).prefix(4))
    for order in [["/Kit/A", "/Kit/Short"], ["/Kit/Short", "/Kit/A"]] {
      let stage = Self.stage(order.map { ($0, $0 == "/Kit/Short" ? short : Self.points(0), false) })
      #expect {
        _ = try stage.build()
      } throws: { error in
        (error as? USDError)?.place == "/Kit/Short.faceVertexIndices"
      }
    }
  }
}
