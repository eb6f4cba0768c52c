import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// References as production assets chain them: an internal reference to a prim another sublayer
/// defines, a referenced assembly whose prototypes are a class inside it, variant selections
/// reaching through a payload's references, and an internal reference to a prim that is itself
/// a reference with a selection. Each case is a usd-wg/assets file made small
/// (RelationshipEncapsulationTests, SubdivisionSurfaces/Pyramid, Teapot/DrawModes); the bounds
/// are usd-core 26.11's BBoxCache (default and render purposes), metres.
@Suite("USD reference arcs through layers and variants")
struct USDReferenceArcsTests {
  /// The box USD reports for `root` in a folder of `files` (`#usda 1.0` added to each).
  static func bounds(_ files: [String: String], root: String) throws -> (
    min: SIMD3<Double>, max: SIMD3<Double>
  ) {
    let folder = try USDLayerStackTests.folder(files)
    return try #require(try USDLayerStackTests.bounds(folder.path + "/" + root))
  }

  static func expect(
    _ box: (min: SIMD3<Double>, max: SIMD3<Double>), _ min: SIMD3<Double>, _ max: SIMD3<Double>,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let apart = Swift.max(
      (box.min - min).max(), (min - box.min).max(), (box.max - max).max(), (max - box.max).max())
    #expect(apart < 1e-12, "\(box) against usd-core's \(min) to \(max)", sourceLocation: sourceLocation)
  }

  static let translated = """
        double3 xformOp:translate = (%@)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    """

  @Test("an internal reference reaches a prim another sublayer of the stack defines")
  func internalReferenceAcrossSublayers() throws {
    let box = try Self.bounds(
      [
        "root.usda":
          "(\n    metersPerUnit = 0.01\n    subLayers = [@./world.usda@, @./prototypes.usda@]\n)\n",
        "world.usda": """
        def Xform "World"
        {
            def "bolt_01" (
                prepend references = </Prototypes/bolt>
            )
            {
        \(Self.translated.replacingOccurrences(of: "%@", with: "5, 0, 0"))
            }
        }

        """,
        "prototypes.usda": """
        class Scope "Prototypes"
        {
            def Xform "bolt"
            {
                def Cube "head"
                {
                    double size = 2
                }
            }
        }

        """,
      ], root: "root.usda")
    Self.expect(box, [0.04, -0.01, -0.01], [0.06, 0.01, 0.01])
  }

  @Test("a referenced assembly's prototypes class stays abstract: only the bolt that references it is drawn")
  func referencedClassStaysAbstract() throws {
    let box = try Self.bounds(
      [
        "root.usda": """
        (
            metersPerUnit = 0.01
        )
        def Xform "World"
        {
            def "Encapsulated" (
                prepend references = @./assembly.usda@
            )
            {
        \(Self.translated.replacingOccurrences(of: "%@", with: "0, 10, 0"))
            }
        }

        """,
        "assembly.usda": """
        (
            defaultPrim = "World"
        )
        def Xform "World"
        {
            def "bolt_01" (
                prepend references = </World/Prototypes/bolt>
            )
            {
        \(Self.translated.replacingOccurrences(of: "%@", with: "3, 0, 0"))
            }
            class Scope "Prototypes"
            {
                def Xform "bolt"
                {
                    def Cube "head"
                    {
                    }
                }
            }
        }

        """,
      ], root: "root.usda")
    Self.expect(box, [0.02, 0.09, -0.01], [0.04, 0.11, 0.01])
  }

  /// Two prims each holding one variant of set `geo`, both referenced by `Pyramid`.
  static let variantAssets = """
    (
        defaultPrim = "Pyramid"
    )
    over "small_variant"
    {
        def Xform "ASSET" (
            variants = {
                string geo = "small"
            }
            prepend variantSets = "geo"
        )
        {
            variantSet "geo" = {
                "small" {
                    def Cube "shape"
                    {
                        double size = 1
                    }
                }
            }
        }
    }
    over "big_variant"
    {
        def Xform "ASSET" (
            variants = {
                string geo = "big"
            }
            prepend variantSets = "geo"
        )
        {
            variantSet "geo" = {
                "big" {
                    def Cube "shape"
                    {
                        double size = 4
                    }
                }
            }
        }
    }
    def "Pyramid" (
        prepend references = [</small_variant/ASSET>, </big_variant/ASSET>]
    )
    {
    }

    """

  @Test("the root's selection reaches the variant sets a payload's internal references bring: the big cube")
  func selectionThroughPayload() throws {
    let box = try Self.bounds(
      [
        "Pyramid.usda": """
        (
            defaultPrim = "Pyramid"
            metersPerUnit = 1
        )
        def Xform "Pyramid" (
            prepend payload = @./payload.usda@
            variants = {
                string geo = "big"
            }
            prepend variantSets = "geo"
        )
        {
            variantSet "geo" = {
                "big" {
                }
                "small" {
                }
            }
        }

        """,
        "payload.usda":
          "(\n    defaultPrim = \"Pyramid\"\n)\ndef \"Pyramid\" (\n    prepend references = @./geo.usda@\n)\n{\n}\n",
        "geo.usda": Self.variantAssets,
      ], root: "Pyramid.usda")
    Self.expect(box, [-2, -2, -2], [2, 2, 2])
  }

  @Test("a copy made by an internal reference keeps its original's reference and selection: two spheres")
  func internalReferenceToAReference() throws {
    let box = try Self.bounds(
      [
        "DrawModes.usda": """
        (
            metersPerUnit = 1
        )
        def Xform "World"
        {
            def "Teapot_0" (
                prepend references = @./Teapot.usda@</Teapot>
                variants = {
                    string modelVariant = "Fancy"
                }
            )
            {
            }
            def "Teapot_1" (
                append references = </World/Teapot_0>
            )
            {
        \(Self.translated.replacingOccurrences(of: "%@", with: "10, 0, 0"))
            }
        }

        """,
        "Teapot.usda": """
        def Xform "Teapot" (
            variants = {
                string modelVariant = "Plain"
            }
            prepend variantSets = "modelVariant"
        )
        {
            variantSet "modelVariant" = {
                "Plain" {
                    def Cube "body"
                    {
                        double size = 1
                    }
                }
                "Fancy" {
                    def Sphere "body"
                    {
                        double radius = 2
                    }
                }
            }
        }

        """,
      ], root: "DrawModes.usda")
    Self.expect(box, [-2, -2, -2], [12, 2, 2])
  }

  @Test(
    "a payload of a layer with no defaultPrim, naming no prim, adds nothing and says so, as usd-core skips it"
  )
  func noDefaultPrim() throws {
    // tinyusdz's payload-001.usda: usd-core's box is the sphere's alone, ±1.2 cm.
    let folder = try USDLayerStackTests.folder([
      "payload.usda": "def \"sphere1\" (\n    payload = [@sphere.usda@, @light.usda@]\n)\n{\n}\n",
      "sphere.usda":
        "(\n    defaultPrim = \"sphere\"\n)\ndef Sphere \"sphere\"\n{\n    double radius = 1.2\n}\n",
      "light.usda": "def Xform \"Light\"\n{\n    def Cube \"Lamp\"\n    {\n    }\n}\n",
    ])
    let model = try ModelAsset.load(path: folder.path + "/payload.usda")
    let box = try #require(model.declaredBounds)
    Self.expect(box, SIMD3(repeating: -0.012), SIMD3(repeating: 0.012))
    #expect(
      model.warnings.contains { $0.contains("light.usda, which names no defaultPrim") }, "\(model.warnings)")
  }

  @Test("internal references in a cycle end as usd-core ends them: /A takes /B's cube, /B keeps its own")
  func internalCycle() throws {
    let folder = try USDLayerStackTests.folder([
      "cycle.usda": """
      def "A" (
          prepend references = </B>
      )
      {
      }
      def "B" (
          prepend references = </A>
      )
      {
          def Cube "c"
          {
          }
      }

      """
    ])
    let model = try ModelAsset.load(path: folder.path + "/cycle.usda")
    #expect(model.triangleCount == 24)
  }

  @Test("a prim referencing its own ancestor is a cycle: left out with a warning, as usd-core leaves it")
  func ancestorCycle() throws {
    let folder = try USDLayerStackTests.folder([
      "ancestor.usda":
        "def Xform \"A\"\n{\n    def \"B\" (\n        prepend references = </A>\n    )\n    {\n    }\n"
        + "    def Cube \"C\"\n    {\n    }\n}\n"
    ])
    // usd-core: /A, /A/B (empty) and /A/C, one cube.
    let model = try ModelAsset.load(path: folder.path + "/ancestor.usda")
    #expect(model.triangleCount == 12)
    #expect(model.warnings.contains { $0.contains("/A/B: references /A, its own ancestor or descendant") })
  }

  @Test(
    "a reference to another format (tinyusdz's usdObj-001: an .obj) is refused as a format USD reads by plugin"
  )
  func referenceToAnotherFormat() throws {
    let folder = try TemporaryFolder()
    try "#usda 1.0\ndef Xform \"Suzanne\" (\n    prepend references = @./suzanne.obj@\n)\n{\n}\n".write(
      toFile: folder.path + "/root.usda", atomically: true, encoding: .utf8)
    try "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n".write(
      toFile: folder.path + "/suzanne.obj", atomically: true, encoding: .utf8)
    #expect {
      _ = try ModelAsset.load(path: folder.path + "/root.usda")
    } throws: { error in
      "\(error)".contains("suzanne.obj") && "\(error)".contains("only through a file-format plugin")
    }
  }

  @Test(
    "an instance's `active = true` reactivates the inactive prim it references; an inactive prim under it stays off"
  )
  func referencingPrimReactivates() throws {
    // usdImagingGL's instancing scenes keep their prototype inactive and reference it from an
    // active instance: ARScene drew nothing, usd-core the instance.
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Xform "Parent" (
          active = false
      )
      {
          def Cube "Box" {
              double size = 2
          }
          def Cube "Off" (
              active = false
          )
          {
              double size = 20
          }
      }
      def Xform "Instance" (
          active = true
          instanceable = true
          references = </Parent>
      )
      {
          double3 xformOp:translate = (5, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:translate"]
      }
      """, to: "instance.usda")
    let model = try ModelAsset.load(path: path)
    // usd-core: (4, -1, -1) to (6, 1, 1), the one 2 m box.
    let box = try #require(model.declaredBounds)
    Self.expect(box, SIMD3(4, -1, -1), SIMD3(6, 1, 1))
    #expect(model.mesh.triangleCount == 12)
  }

  @Test(
    "a reference to the layer's own file (by name, with or without a prim) is an internal reference, not a cycle"
  )
  func referenceToItsOwnFile() throws {
    // usd's testUsdFlatten/ref.usd references `@./ref.usd@</Bar>`: ARScene loaded the file again
    // and again until it refused "more than eight layers deep".
    let box = try Self.bounds(
      [
        "kit.usda": """
        (
            metersPerUnit = 1
            upAxis = "Y"
            defaultPrim = "Part"
        )
        class Xform "Part"
        {
            def Cube "Body"
            {
                double size = 2
            }
        }
        def Xform "Copy" (
            references = @./kit.usda@</Part>
        )
        {
            double3 xformOp:translate = (5, 0, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"]
        }
        def Xform "Default" (
            references = @kit.usda@
        )
        {
            double3 xformOp:translate = (0, 5, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"]
        }
        """
      ], root: "kit.usda")
    // usd-core: (-1, -1, -1) to (6, 6, 1): the copy at x 5 and the default prim's at y 5.
    Self.expect(box, SIMD3(-1, -1, -1), SIMD3(6, 6, 1))
  }

  @Test(
    "a reference to a prim its layer does not hold composes nothing, with a warning, and a mesh without points bounds nothing, as in usd-core"
  )
  func unresolvedPrimAndEmptyMesh() throws {
    // As Blender 4.2 writes geometry-nodes instances: each instance references a prototype
    // the file never holds, and the scattered source is a mesh with no points. usd-core warns
    // ("unresolved reference prim path") and bounds the rest: (-1, -1, -1) to (1, 1, 1). One
    // warning says it for every instance (a scatter may have thousands).
    let folder = try USDLayerStackTests.folder([
      "scatter.usda": """
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Xform "root"
      {
          def Xform "Scatter_0"
          {
      \(Self.translated.replacingOccurrences(of: "%@", with: "4, 0, 0"))
              def "Cone" (
                  prepend references = </Plane/Cone>
              )
              {
              }
          }
          def Xform "Scatter_1"
          {
              def "Cone" (
                  prepend references = </Plane/Cone>
              )
              {
              }
          }
          def Mesh "Empty"
          {
              int[] faceVertexCounts = []
              int[] faceVertexIndices = []
              point3f[] points = []
          }
          def Cube "Box"
          {
              double size = 2
          }
      }

      """,
      "empty.usda": "def Mesh \"Empty\"\n{\n    int[] faceVertexCounts = []\n    point3f[] points = []\n}\n",
    ])
    let model = try ModelAsset.load(path: folder.path + "/scatter.usda")
    Self.expect(try #require(model.declaredBounds), SIMD3(-1, -1, -1), SIMD3(1, 1, 1))
    #expect(model.triangleCount == 12)
    #expect(
      model.warnings.filter { $0.contains("/Plane/Cone") }
        == [
          folder.path
            + "/scatter.usda: /root/Scatter_0/Cone and 1 more prims, each: references /Plane/Cone of "
            + "this layer, which is not there: nothing of it is composed, as in usd-core"
        ], "\(model.warnings)")
    // Nothing but the empty mesh: no bounds (their infinities once failed `model stats`).
    let (empty, warnings) = try ModelStatistics.read(path: folder.path + "/empty.usda")
    #expect(empty.bounds == nil && empty.geometryBounds == nil && empty.triangles == 0)
    #expect(warnings.contains { $0.contains("no drawable geometry") }, "\(warnings)")
  }

  /// A layer whose level `k` holds two prims referencing level `k − 1`, from one prim at level 0:
  /// level `k` composes 2ᵏ copies of it (the shape of a fuzzed file whose copies' references were
  /// copied again).
  static func fanOut(levels: Int) throws -> USDLayer {
    var text = "#usda 1.0\ndef Xform \"L0\"\n{\n    def Xform \"x\"\n    {\n    }\n}\n"
    for k in 1...levels {
      text += "def Xform \"L\(k)\"\n{\n"
      for child in ["a", "b"] {
        text += "    def Xform \"\(child)\" (\n        references = </L\(k - 1)>\n    )\n    {\n    }\n"
      }
      text += "}\n"
    }
    return try USDTextLayer.read(ArraySlice(Array(text.utf8)), path: "fan.usda")
  }

  @Test("references that fan out past the limits are refused by name, where they would compose without end")
  func fanOutLimits() throws {
    // Eight levels: an internal reference chain of more is refused as too deep.
    let layer = try Self.fanOut(levels: 8)
    let none: (String, String) throws(USDError) -> USDLayer? = { _, _ in nil }
    // Within the standard limits it composes: 2⁸ copies of level 0 under level 8, and more.
    let composed = try layer.composed(load: none)
    #expect(composed.prims.contains { $0.path == "/L8/b/b/b/b/b/b/b/b/x" })
    for (limits, words) in [
      (USDCompositionLimits(prims: 100), "composes more than 100 prims or 50000000 opinions"),
      (USDCompositionLimits(work: 2_000), "composes more than 1000000 prims or 2000 opinions"),
      (USDCompositionLimits(arcs: 50), "composes more than 50 references and payloads"),
    ] {
      #expect {
        _ = try layer.composed(load: none, limits: limits)
      } throws: { error in
        "\(error)".contains("fan.usda") && "\(error)".contains(words)
      }
    }
  }
}
