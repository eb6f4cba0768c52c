import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// A gprim's appearance without a material: `primvars:displayColor`, the colour Storm draws a
/// surface bound to no material in (one colour, or colours per point, face or face corner),
/// never over a bound material's; and `doubleSided`.
@Suite("USD gprim appearance")
struct USDGprimAppearanceTests {
  /// The model of `body` (USD text after the header) in a fresh folder.
  static func load(_ body: String) throws -> ModelAsset {
    let folder = try TemporaryFolder()
    let path = try USDTestText.write(body, as: "c.usda", in: folder)
    return try ModelAsset.load(path: path)
  }

  /// Two unit quads side by side (faces 0 and 1, x from 0 to 1 and 1 to 2), with `extra` lines.
  static func quads(_ extra: String) -> String {
    """
    def Mesh "Pair" {
        int[] faceVertexCounts = [4, 4]
        int[] faceVertexIndices = [0, 1, 4, 3, 1, 2, 5, 4]
        point3f[] points = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0)]
        uniform token subdivisionScheme = "none"
        \(extra)
    }

    """
  }

  /// A material `/Blue`, a UsdPreviewSurface of diffuse colour (0, 0, 1).
  static let blue = USDTestText.previewMaterial("/Blue", diffuse: "(0, 0, 1)")

  @Test("an implicit sphere and a mesh bound to nothing: each drawn in its one display colour")
  func constant() throws {
    let model = try Self.load(
      """
      def Sphere "Ball" { color3f[] primvars:displayColor = [(1, 0, 0)] }
      """ + Self.quads(#"color3f[] primvars:displayColor = [(0, 0.5, 1)] (interpolation = "constant")"#))
    let colours = Set(model.mesh.submeshes.map { model.mesh.materials[$0.material].diffuse })
    #expect(colours == [SIMD3(1, 0, 0), SIMD3(0, 0.5, 1)], "\(model.mesh.materials)")
    #expect(model.mesh.colors.isEmpty)
  }

  @Test("a constant display colour on an Xform is inherited by the surfaces under it without their own")
  func inherited() throws {
    let model = try Self.load(
      """
      def Xform "Group" {
          color3f[] primvars:displayColor = [(0, 1, 0)]
          def Cube "Own" { color3f[] primvars:displayColor = [(1, 0, 0)] }
          def Sphere "Inherits" { }
      }
      """)
    let colours = Set(model.mesh.submeshes.map { model.mesh.materials[$0.material].diffuse })
    #expect(colours == [SIMD3(1, 0, 0), SIMD3(0, 1, 0)], "\(model.mesh.materials)")
  }

  @Test("colours per face beside a subset's material: its faces in the material untinted, the rest coloured")
  func varyingBesideSubset() throws {
    let model = try Self.load(
      Self.quads(
        """
        color3f[] primvars:displayColor = [(1, 0, 0), (0, 1, 0)] (interpolation = "uniform")
            def GeomSubset "Second" (prepend apiSchemas = ["MaterialBindingAPI"]) {
                uniform token elementType = "face"
                uniform token familyName = "materialBind"
                int[] indices = [1]
                rel material:binding = </Blue>
            }
        """)
        + Self.blue)
    let mesh = model.mesh
    for submesh in mesh.submeshes {
      let material = mesh.materials[submesh.material]
      let colours = Set(
        submesh.triangles.flatMap { t in (0..<3).map { mesh.colors[Int(mesh.indices[3 * t + $0])] } })
      if material.diffuse == SIMD3(0, 0, 1) {
        #expect(colours == [SIMD3(1, 1, 1)], "the subset's face: \(colours)")
      } else {
        #expect(material.diffuse == SIMD3(1, 1, 1) && colours == [SIMD3(1, 0, 0)], "\(material) \(colours)")
      }
    }
    #expect(mesh.submeshes.count == 2)
  }

  @Test(
    "one display opacity below 1 (its own, or an ancestor's constant one) draws the display colour blended at it, as Storm does"
  )
  func displayOpacity() throws {
    let model = try Self.load(
      """
      def Xform "Faded" {
          float[] primvars:displayOpacity = [0.5]
          def Cube "Inherits" { color3f[] primvars:displayColor = [(0, 1, 0)] }
      }
      """
        + Self.quads(
          "color3f[] primvars:displayColor = [(1, 0, 0)]\nfloat[] primvars:displayOpacity = [0.25]"))
    let looks = Set(
      model.mesh.submeshes.map { model.mesh.materials[$0.material] }.map {
        "\($0.diffuse) \($0.opacity) \($0.alphaMode == .blend)"
      })
    #expect(
      looks == ["SIMD3<Float>(1.0, 0.0, 0.0) 0.25 true", "SIMD3<Float>(0.0, 1.0, 0.0) 0.5 true"], "\(looks)")
    #expect(!model.warnings.contains { $0.contains("displayOpacity") }, "\(model.warnings)")
  }

  @Test("a display opacity that varies over a surface is named and drawn opaque")
  func varyingDisplayOpacity() throws {
    let model = try Self.load(
      Self.quads(
        """
        color3f[] primvars:displayColor = [(1, 0, 0)]
            float[] primvars:displayOpacity = [0.25, 1] (interpolation = "uniform")
        """))
    #expect(
      model.warnings.contains { $0.contains("/Pair") && $0.contains("displayOpacity varies") },
      "\(model.warnings)")
    #expect(model.mesh.materials[model.mesh.submeshes[0].material].opacity == 1)
  }

  @Test("a bound material wins over the display colour")
  func boundMaterialWins() throws {
    let model = try Self.load(
      Self.quads(
        """
        color3f[] primvars:displayColor = [(1, 0, 0)]
            rel material:binding = </Blue>
        """)
        + Self.blue)
    let colours = Set(model.mesh.submeshes.map { model.mesh.materials[$0.material].diffuse })
    #expect(colours == [SIMD3(0, 0, 1)], "\(model.mesh.materials)")
  }

  @Test(
    "colours per face, per point and per face corner: each triangle corner the colour its interpolation gives it",
    arguments: [
      ("uniform", "[(1, 0, 0), (0, 1, 0)]"),
      ("vertex", "[(1, 0, 0), (1, 0, 0), (0, 1, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0)]"),
      (
        "faceVarying",
        "[(1, 0, 0), (1, 0, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0), (0, 1, 0), (0, 1, 0)]"
      ),
    ])
  func varying(interpolation: String, colours: String) throws {
    let model = try Self.load(
      Self.quads("color3f[] primvars:displayColor = \(colours) (interpolation = \"\(interpolation)\")"))
    let mesh = model.mesh
    #expect(mesh.colors.count == mesh.positions.count && !mesh.colors.isEmpty)
    #expect(mesh.submeshes.allSatisfy { mesh.materials[$0.material].diffuse == SIMD3(1, 1, 1) })
    // Every corner of the first face (x ≤ 1) red, of the second (x ≥ 1, its triangle's centre
    // past 1) green; per point, the shared edge's points red.
    for t in 0..<(mesh.indices.count / 3) {
      let corners = (0..<3).map { Int(mesh.indices[3 * t + $0]) }
      let centre = corners.map { mesh.modelPosition($0).x }.reduce(0, +) / 3
      for v in corners {
        let x = mesh.modelPosition(v).x
        let expected: SIMD3<Float> =
          interpolation == "vertex"
          ? (x > 1.5 ? SIMD3(0, 1, 0) : SIMD3(1, 0, 0))
          : (centre < 1 ? SIMD3(1, 0, 0) : SIMD3(0, 1, 0))
        #expect(
          mesh.colors[v] == expected, "\(interpolation): corner at x \(x) of a triangle centred at \(centre)")
      }
    }
  }

  @Test("a doubleSided gprim's material is drawn from both sides; a one-sided one sharing it is not")
  func doubleSided() throws {
    let model = try Self.load(
      Self.quads("uniform bool doubleSided = 1\ncolor3f[] primvars:displayColor = [(1, 0, 0)]")
        + """
        def Cube "Box" { color3f[] primvars:displayColor = [(1, 0, 0)] }
        """)
    let sides = model.mesh.submeshes.map { model.mesh.materials[$0.material].isDoubleSided }
    #expect(sides.sorted { !$0 && $1 } == [false, true], "\(model.mesh.materials)")
  }
}
