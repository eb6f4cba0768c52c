import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// What USD's BBoxCache (default and render purposes) takes into a stage's bounds, beyond the
/// meshes drawn: usd-core 26.11's box for one stage of each case, found in Apple's and usd-wg's
/// test assets (`purpose.usda`, `Environment.usda`'s lights, `inverse_extent.usda`,
/// `pointsTypes.usda`).
@Suite("USD bounds as BBoxCache takes them")
struct USDBoundsRulesTests {
  static let stage = """
    #usda 1.0
    (
        metersPerUnit = 1
        upAxis = "Y"
    )
    def Xform "World" {
        def Cube "Render" { token purpose = "render" }
        def Cube "Other" { token purpose = "other"
            double3 xformOp:translate = (9, 0, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
        def SphereLight "Light" { float3[] extent = [(-3, -3, -3), (3, 3, 3)]
            double3 xformOp:translate = (0, 5, 0)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
        def Mesh "Inverted" { float3[] extent = [(1, 1, 1), (-1, -1, -1)]
            int[] faceVertexCounts = [3]
            int[] faceVertexIndices = [0, 1, 2]
            point3f[] points = [(0, 0, -20), (1, 0, -20), (0, 1, -20)] }
        def Mesh "Pointless" { float3[] extent = [(-1, -1, -1), (1, 1, 1)]
            int[] faceVertexCounts = [3]
            int[] faceVertexIndices = [0, 1, 2]
            int[] points = [0, 1, 2]
            double3 xformOp:translate = (0, 0, 7)
            uniform token[] xformOpOrder = ["xformOp:translate"] }
    }
    """

  /// The model of the text layer `text`, written to a file, at `time` (the default time for nil).
  static func load(_ text: String, time: Double? = nil) throws -> ModelAsset {
    let folder = try TemporaryFolder()
    let path = folder.path + "/stage.usda"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return try ModelAsset.load(path: path, time: time)
  }

  @Test(
    "an unknown purpose is left out, a light's extent and an undrawable mesh's extent are in, an inverted extent is empty"
  )
  func bboxCacheRules() throws {
    let model = try Self.load(Self.stage)
    let box = try #require(model.declaredBounds)
    // usd-core: (-3, -1, -3) to (3, 8, 8).
    #expect(box.min == SIMD3(-3, -1, -3) && box.max == SIMD3(3, 8, 8), "\(box)")
    // The render cube and the inverted mesh's triangle are drawn; nothing of purpose `other`.
    #expect(model.mesh.triangleCount == 13)
    #expect(model.warnings.contains { $0.contains("1 mesh not drawn, without points that are 3-vectors") })
    #expect(model.warnings.contains { $0.contains("of purpose other") && $0.contains("/World/Other") })
  }

  @Test(
    "a stage whose only extent is inverted has empty bounds to usd-core: reported as drawn, with a warning")
  func onlyInvertedExtent() throws {
    // Apple's inverse_extent.usda, a cube with its extent's corners swapped: usd-core's box is empty.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 0.01
      )
      def Mesh "mesh" { float3[] extent = [(1, 1, 1), (0, 0, 0)]
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points = [(-0.5, -0.5, -0.5), (0.5, -0.5, -0.5), (-0.5, 0.5, -0.5)] }
      """)
    #expect(model.declaredBounds == nil)
    #expect(model.geometryBounds != nil)
    #expect(model.warnings.contains { $0.contains("USD's bounds are empty") }, "\(model.warnings)")
  }

  @Test(
    "a light without an authored extent is bounded by the shape its size inputs give, as UsdLux computes it")
  func lightExtentsFromInputs() throws {
    // Blender writes its lights so: a SphereLight with `inputs:radius`, no extent (tinyusdz's models).
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Z"
      )
      def Xform "World" {
          def SphereLight "Sphere" { float inputs:radius = 0.1
              double3 xformOp:translate = (4, 1, 6)
              uniform token[] xformOpOrder = ["xformOp:translate"] }
          def CylinderLight "Tube" { float inputs:length = 3
              float inputs:radius = 0.2
              double3 xformOp:translate = (0, -5, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"] }
          def DiskLight "Disk" { double3 xformOp:translate = (-2, 0, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"] }
          def DistantLight "Sun" {}
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-2.5, -5.200000002980232, -0.20000000298023224) to (4.100000001490116,
    // 1.1000000014901161, 6.100000001490116), Z up; turned to Y up.
    let low = SIMD3<Double>(-2.5, -0.20000000298023224, -1.1000000014901161)
    let high = SIMD3<Double>(4.100000001490116, 6.100000001490116, 5.200000002980232)
    let apart = [box.min - low, low - box.min, box.max - high, high - box.max].map { $0.max() }.max()!
    #expect(apart < 1e-12, "\(box)")
  }

  @Test(
    "curves and points are not drawn, with a warning naming them, and bounded as their schemas compute it")
  func curvesAndPoints() throws {
    // Blender writes hair as BasisCurves (tinyusdz's curves.usda): usd-core bounds them by their
    // points widened by half the widest width, a point cloud by each point's own.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      def Xform "World" {
          def BasisCurves "Hair" { int[] curveVertexCounts = [4]
              point3f[] points = [(0, 0, 0), (1, 1, 0), (2, 1, 0), (3, 0, 0)]
              float[] widths = [0.1, 0.4, 0.2, 0.1] (interpolation = "vertex") }
          def Points "Cloud" { point3f[] points = [(0, 5, 0), (0, 6, 1)]
              float[] widths = [0.5, 1] (interpolation = "vertex") }
          def Mesh "Floor" { int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(-1, 0, -1), (1, 0, -1), (0, 0, 1)] }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1, -0.20000000298023224, -1) to (3.200000047683716, 6.5, 1.5).
    #expect(
      box.min == SIMD3(-1, -0.20000000298023224, -1) && box.max == SIMD3(3.200000047683716, 6.5, 1.5),
      "\(box)")
    #expect(model.mesh.triangleCount == 1)
    #expect(
      model.warnings.contains {
        $0.contains("2 prims of a kind ARScene does not draw") && $0.contains("/World/Hair (BasisCurves)")
      }, "\(model.warnings)")
  }

  @Test(
    "Gaussian-splat particle fields (usd-core 26.11's UsdVol) are not drawn, with a warning naming them, and bounded by their authored extents only"
  )
  func particleFields() throws {
    // Blender's usd_particlefield.usda writes these prims; usd-core computes no extent for them
    // (BBoxCache: empty without an authored one) and knows them as imageable gprims.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def ParticleField3DGaussianSplat "Splat"
      {
          float[] opacities = [0.99, 0.55]
          quatf[] orientations = [(0.5, 0.62, 0.36, 0.48), (0.38, 0.29, 0.55, 0.68)]
          point3f[] positions = [(1.63, -1.3, 0.22), (-1.02, 0.77, 0.07)]
          float3[] scales = [(0.1, 0.2, 0.1), (0.2, 0.1, 0.2)]
      }
      def ParticleField3DGaussianSplat "Bounded"
      {
          float3[] extent = [(4, 4, 4), (5, 6, 7)]
          point3f[] positions = [(4.5, 5, 6)]
      }
      def Cube "Box"
      {
          double size = 1
      }
      """)
    // usd-core: (-0.5, -0.5, -0.5) to (5, 6, 7).
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(repeating: -0.5) && box.max == SIMD3(5, 6, 7), "\(box)")
    #expect(model.mesh.triangleCount == 12)
    #expect(
      model.warnings.contains {
        $0.contains("2 prims of a kind ARScene does not draw")
          && $0.contains("/Splat (ParticleField3DGaussianSplat)")
          && $0.contains("/Bounded (ParticleField3DGaussianSplat)")
      }, "\(model.warnings)")
  }

  @Test(
    "a skeleton is bounded by its joints at the time: one outside a SkelRoot by its own, a SkelRoot that skins nothing by its skeletons', all else under it left out"
  )
  func skeletonsBoundedByJoints() throws {
    // hunterh37/USDZStudio's skel.usda (a SkelRoot holding a skeleton and its animation, no
    // mesh): usd-core bounds it by the skeleton's joints, where ARScene said empty. Under a
    // SkelRoot, BBoxCache takes the root's extent alone (not the lamp's, not the mesh's).
    let stage = """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def SkelRoot "Rigged" {
          def Xform "Rig" {
              double3 xformOp:translate = (5, 0, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"]
              def Skeleton "Skeleton" (prepend apiSchemas = ["SkelBindingAPI"]) {
                  rel skel:animationSource = </Rigged/Walk>
                  uniform token[] joints = ["Hip", "Hip/Knee"]
                  uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)), ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 1, 0, 1))]
              }
          }
          def SkelAnimation "Walk" {
              uniform token[] joints = ["Hip/Knee"]
              quatf[] rotations = [(1, 0, 0, 0)]
              half3[] scales = [(1, 1, 1)]
              float3[] translations.timeSamples = {
                  1: [(0, 1, 0)],
                  24: [(0, 2, 0)],
              }
          }
          def SphereLight "Lamp" {
              float inputs:radius = 30
          }
          def Mesh "Unskinned" {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 40), (1, 0, 40), (0, 1, 40)]
          }
      }
      def Skeleton "Loose" {
          double3 xformOp:translate = (0, 0, -3)
          uniform token[] xformOpOrder = ["xformOp:translate"]
          uniform token[] joints = ["A", "A/B"]
          uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (-1, 0, 0, 1)), ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, -2, 1))]
      }
      """
    // usd-core: (-1, 0, -5) to (5, 1, 0) at the default time, (5, 2, 0) at time 24.
    for (time, top) in [(nil, 1.0), (24.0, 2.0)] {
      let model = try Self.load(stage, time: time)
      let box = try #require(model.declaredBounds)
      #expect(
        box.min == SIMD3(-1, 0, -5) && box.max == SIMD3(5, top, 0), "\(String(describing: time)): \(box)")
    }
  }

  @Test(
    "BBoxCache leaves out what is under a gprim (a mesh under a mesh, a lamp under a cube): drawn, left out of the bounds, named in a warning"
  )
  func nothingUnderAGprimBounded() throws {
    // tinyusdz's references-003.usda nests a mesh under a mesh: usd-core's bounds leave it out.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Mesh "Outer" {
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
          def Mesh "Inner" {
              int[] faceVertexCounts = [3]
              int[] faceVertexIndices = [0, 1, 2]
              point3f[] points = [(0, 0, 9), (1, 0, 9), (0, 1, 9)]
          }
          def Xform "X" {
              def Cube "C" {
                  double size = 1
              }
          }
      }
      def Cube "Box" {
          double size = 2
          def SphereLight "L" {
              float inputs:radius = 30
          }
      }
      def Scope "S" {
          def Cube "Box2" {
              double size = 1
              double3 xformOp:translate = (0, -5, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"]
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1, -5.5, -1) to (1, 1, 1).
    #expect(box.min == SIMD3(-1, -5.5, -1) && box.max == SIMD3(1, 1, 1), "\(box)")
    #expect(model.mesh.triangleCount == 1 + 1 + 12 + 12 + 12)
    #expect(
      model.warnings.contains {
        $0.contains("2 surfaces under another boundable prim") && $0.contains("/Outer/X/C")
      },
      "\(model.warnings)")
  }

  @Test("a point instancer whose prototype is only an `over` draws nothing of it, and says so")
  func instancerOfAnOver() throws {
    // tinyusdz's pointinstancer-001.usda (from an Arnold forum thread): the prototype is an
    // `over`, not on the stage; usd-core traverses no mesh there.
    let model = try Self.load(
      """
      #usda 1.0
      def PointInstancer "Scatter" {
          point3f[] positions = [(1, 0, -1), (-1, 0, 1)]
          int[] protoIndices = [0, 0]
          rel prototypes = </Box>
      }
      over Mesh "Box" {
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
      }
      """)
    #expect(model.mesh.triangleCount == 0)
    #expect(
      model.warnings.contains { $0.contains("names prototypes not on the stage") && $0.hasSuffix(": /Box") },
      "\(model.warnings)")
  }

  @Test("a point instancer with an authored extent is bounded by it, as BBoxCache takes a boundable's own")
  func instancerAuthoredExtent() throws {
    // usdImagingGL's point-instancer scenes carry extents wider than their instances: usd-core
    // bounds them by the extent, where ARScene took the instances' box.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def PointInstancer "Scatter" {
          float3[] extent = [(-5, -5, -5), (5, 5, 5)]
          point3f[] positions = [(0, 0, 0), (4, 0, 0)]
          int[] protoIndices = [0, 0]
          rel prototypes = </Scatter/Prototypes/Box>
          def Scope "Prototypes" {
              def Cube "Box" {
                  double size = 2
              }
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-5, -5, -5) to (5, 5, 5).
    #expect(box.min == SIMD3(repeating: -5) && box.max == SIMD3(repeating: 5), "\(box)")
    #expect(model.mesh.triangleCount == 2 * 12)
  }

  @Test(
    "a prim's own purpose wins over its ancestors', and a typeless prim's purpose and visibility do not count, as ComputePurpose finds them"
  )
  func purposeAsComputePurposeFindsIt() throws {
    // usdImagingGL's InheritedPurposes.usd: a proxy cube under a render Xform was drawn, and a
    // typeless scope's purpose hid what it holds.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Xform "Render" {
          uniform token purpose = "render"
          def Cube "Proxy" {
              uniform token purpose = "proxy"
              double3 xformOp:translate = (10, 0, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"]
          }
          def Cube "Inherits" {
              double3 xformOp:translate = (0, 3, 0)
              uniform token[] xformOpOrder = ["xformOp:translate"]
          }
      }
      def "Typeless" {
          custom token purpose = "guide"
          token visibility = "invisible"
          def Cube "Drawn" {
              double3 xformOp:translate = (0, 0, -4)
              uniform token[] xformOpOrder = ["xformOp:translate"]
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1, -1, -5) to (1, 4, 1).
    #expect(box.min == SIMD3(-1, -1, -5) && box.max == SIMD3(1, 4, 1), "\(box)")
    #expect(model.mesh.triangleCount == 24)
    #expect(model.warnings.contains { $0.contains("of purpose proxy") && $0.contains("/Render/Proxy") })
  }

  @Test(
    "a mesh whose points are only in time samples draws nothing at the default time, and BBoxCache takes its extent"
  )
  func sampledPointsBoundedByExtent() throws {
    // usdImagingGL's primvar_sharing.usda: usd-core's bounds take the animated cube's extent.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Mesh "Animated" {
          float3[] extent = [(-1, -1, -1), (1, 1, 2)]
          int[] faceVertexCounts = [3]
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points.timeSamples = {
              0: [(0, 0, 0), (1, 0, 0), (0, 1, 0)],
          }
      }
      """)
    // usd-core: (-1, -1, -1) to (1, 1, 2).
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(-1, -1, -1) && box.max == SIMD3(1, 1, 2), "\(box)")
    #expect(model.mesh.triangleCount == 0)
    #expect(
      model.warnings.contains { $0.contains("points only in time samples") && $0.hasSuffix(": /Animated") })
  }

  @Test(
    "a point instancer's `def` prototype under an `over` is drawn, an `over` prototype is not, with a warning"
  )
  func instancerPrototypeUnderAnOver() throws {
    // usdImagingGL's sphereInstancer.usda keeps its prototypes under an `over`: usd-core draws
    // and bounds the `def` one, ARScene drew nothing.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def PointInstancer "Scatter" {
          point3f[] positions = [(0, 0, 0), (10, 0, 0), (20, 0, 0)]
          int[] protoIndices = [0, 0, 1]
          rel prototypes = [</Scatter/Holder/Used>, </Scatter/Holder/Skipped>]
          over "Holder" {
              def Cube "Used" {
                  double size = 2
              }
              over "Skipped" {
                  def Cube "Inner" {
                      double size = 2
                  }
              }
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1, -1, -1) to (11, 1, 1).
    #expect(box.min == SIMD3(-1, -1, -1) && box.max == SIMD3(11, 1, 1), "\(box)")
    #expect(model.mesh.triangleCount == 2 * 12)
    #expect(
      model.warnings.contains { $0.contains("names prototypes not on the stage") && $0.hasSuffix("/Skipped") }
    )
  }

  @Test(
    "a point instancer's prototypes under an invisible scope are drawn as instances; under a guide scope they are not"
  )
  func instancerPrototypesUnderAHiddenScope() throws {
    // usdImagingGL's InstancePrimvars scenes hide their prototypes in an invisible scope: usd-core
    // draws and bounds the instances, ARScene drew none. A scope's purpose still counts.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def PointInstancer "Scatter" {
          point3f[] positions = [(0, 0, 0), (10, 0, 0)]
          int[] protoIndices = [0, 1]
          rel prototypes = [</Scatter/Hidden/Box>, </Scatter/Guides/Box>]
          def Scope "Hidden" {
              token visibility = "invisible"
              def Cube "Box" {
                  double size = 2
              }
          }
          def Scope "Guides" {
              uniform token purpose = "guide"
              def Cube "Box" {
                  double size = 2
              }
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1, -1, -1) to (1, 1, 1).
    #expect(box.min == SIMD3(-1, -1, -1) && box.max == SIMD3(1, 1, 1), "\(box)")
    #expect(model.mesh.triangleCount == 12)
  }

  @Test(
    "a skinned implicit shape pads its SkelRoot's extent by its schema's fallback extent, as UsdSkel pads it")
  func skinnedImplicitShapePadding() throws {
    // usdSkel's lbs.usda skins a sphere and a cube rigidly: usd-core pads the root's joints by
    // their fallback extents (±1) through their geomBindTransforms; ARScene padded by nothing.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def SkelRoot "Rig" {
          def Skeleton "Skeleton" {
              uniform token[] joints = ["Hip", "Hip/Knee"]
              uniform matrix4d[] bindTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)), ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (2, 0, 0, 1))]
              uniform matrix4d[] restTransforms = [((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)), ((1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (2, 0, 0, 1))]
          }
          def Sphere "Ball" (
              prepend apiSchemas = ["SkelBindingAPI"]
          )
          {
              rel skel:skeleton = </Rig/Skeleton>
              matrix4d primvars:skel:geomBindTransform = ((0.5, 0, 0, 0), (0, 0.5, 0, 0), (0, 0, 0.5, 0), (0, 1, 0, 1))
              int[] primvars:skel:jointIndices = [0] (
                  interpolation = "constant"
              )
              float[] primvars:skel:jointWeights = [1] (
                  interpolation = "constant"
              )
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-1.5, -1.5, -1.5) to (3.5, 1.5, 1.5): the joints' box padded by 1.5.
    #expect(box.min == SIMD3(repeating: -1.5) && box.max == SIMD3(3.5, 1.5, 1.5), "\(box)")
  }

  @Test("a volume is not drawn, with a warning naming it, and bounded by its authored extent")
  func volumeBoundedByExtent() throws {
    // usdImagingGL's volume scenes: usd-core's bounds take the volume's extent, ARScene's did not.
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Volume "Smoke" {
          float3[] extent = [(-4, -3, -3), (3, 3, 10)]
          rel field:density = </Smoke/Density>
          def OpenVDBAsset "Density" {
              asset filePath = @smoke.vdb@
              token fieldName = "density"
          }
      }
      """)
    let box = try #require(model.declaredBounds)
    // usd-core: (-4, -3, -3) to (3, 3, 10).
    #expect(box.min == SIMD3(-4, -3, -3) && box.max == SIMD3(3, 3, 10), "\(box)")
    #expect(model.warnings.contains { $0.contains("does not draw") && $0.contains("/Smoke (Volume)") })
  }

  @Test(
    "AR Quick Look's 3-D text (Reality Composer's Preliminary_Text) is not drawn, and a warning says the phone draws it"
  )
  func arQuickLookText() throws {
    let model = try Self.load(
      """
      #usda 1.0
      (
          metersPerUnit = 1
          upAxis = "Y"
      )
      def Xform "Scene" {
          def Preliminary_Text "Title" {
              string content = "Hello"
              string[] font = ["Helvetica"]
              float pointSize = 144
              float depth = 0.01
          }
          def Cube "Box" { double size = 1 }
      }
      """)
    #expect(model.triangleCount > 0)
    #expect(
      model.warnings.contains {
        $0.contains("1 prim of AR Quick Look's 3-D text (Preliminary_Text) not drawn")
          && $0.hasSuffix("/Scene/Title")
      }, "\(model.warnings)")
  }
}
