import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Layers beside a bare layer file: sublayers, references and payloads in its folder, composed
/// in USD's strength order (local opinions of the whole stack, then variants; references, then
/// payloads), `over`s of nothing left out, and nothing read outside the folder. Each case is
/// one of usd-wg/assets' composition puzzles or Apple's stage-composition tests, made small;
/// the bounds are usd-core 26.11's BBoxCache (default and render purposes).
@Suite("USD layer stacks beside a layer file")
struct USDLayerStackTests {
  /// `files` (name → text, `#usda 1.0` added) written in a new folder; the folder.
  static func folder(_ files: [String: String]) throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    for (name, text) in files {
      let path = folder.path + "/" + name
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try ("#usda 1.0\n" + text).write(toFile: path, atomically: true, encoding: .utf8)
    }
    return folder
  }

  static let centimetres =
    "(\n  metersPerUnit = 0.01\n  upAxis = \"Y\"\n  defaultPrim = \"World\"\n  subLayers = [@./variants.usda@, @./defaults.usda@]\n)\n"

  /// The box USD reports for the stage at `path`, metres.
  static func bounds(_ path: String) throws -> (min: SIMD3<Double>, max: SIMD3<Double>)? {
    try ModelAsset.load(path: path).declaredBounds
  }

  @Test("a stack's local opinion beats a stronger sublayer's variant: the ball's radius is 1, not 2")
  func localBeatsVariant() throws {
    let folder = try Self.folder([
      "root.usda": Self.centimetres,
      "variants.usda": """
      over "World" {
        over "Ball" (variants = { string size = "small" } prepend variantSets = "size") {
          variantSet "size" = { "small" { double radius = 2 } "large" { double radius = 10 } }
        }
      }
      """,
      "defaults.usda": "def Xform \"World\" { def Sphere \"Ball\" { double radius = 1 } }\n",
    ])
    let box = try #require(try Self.bounds(folder.path + "/root.usda"))
    #expect(abs(box.max.x - 0.01) < 1e-12 && abs(box.min.y + 0.01) < 1e-12, "\(box)")
  }

  @Test("a reference beats a payload whichever sublayer brings it: the ball's radius is 11, not 14")
  func referenceBeatsPayload() throws {
    let folder = try Self.folder([
      "shot.usda": "(\n  metersPerUnit = 0.01\n  subLayers = [@./animation.usda@, @./layout.usda@]\n)\n",
      "animation.usda": "def Xform \"World\" { over \"Character\" (prepend payload = @./cache.usda@) {} }\n",
      "layout.usda": "def Xform \"World\" { def \"Character\" (prepend references = @./model.usda@) {} }\n",
      "cache.usda": "(defaultPrim = \"Ball\")\ndef Sphere \"Ball\" { double radius = 14 }\n",
      "model.usda": "(defaultPrim = \"Ball\")\ndef Sphere \"Ball\" { double radius = 11 }\n",
    ])
    let box = try #require(try Self.bounds(folder.path + "/shot.usda"))
    #expect(abs(box.max.x - 0.11) < 1e-12, "\(box)")
  }

  @Test("a sublayer's prims are drawn; an over of nothing is not (a defined cube at x 3, none at 6)")
  func sublayerAndOvers() throws {
    let folder = try Self.folder([
      "over.usda": """
      (
        metersPerUnit = 0.01
        subLayers = [@parts/parent.usda@]
      )
      over "World" {
        def Cube "Defined" { double3 xformOp:translate = (3, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:translate"] }
        over Cube "Undefined" { double3 xformOp:translate = (6, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:translate"] }
      }
      """,
      "parts/parent.usda": "def Xform \"World\" { def Cube \"Cube\" {} }\n",
    ])
    let box = try #require(try Self.bounds(folder.path + "/over.usda"))
    // The sublayer's cube from -1 and the defined one to 4 (centimetres); nothing at 6.
    #expect(abs(box.min.x + 0.01) < 1e-12 && abs(box.max.x - 0.04) < 1e-12, "\(box)")
  }

  @Test("a layer naming a file outside its folder, by ../, an absolute path or a link, is refused by name")
  func outsideTheFolder() throws {
    let outside = try Self.folder(["secret.usda": "def Cube \"Secret\" {}\n"])
    let folder = try Self.folder([
      "up.usda": "def Xform \"A\" (references = @../secret.usda@) {}\n",
      "absolute.usda": "def Xform \"A\" (references = @\(outside.path)/secret.usda@) {}\n",
      "linked.usda": "def Xform \"A\" (references = @./link.usda@) {}\n",
      "stacked.usda": "(\n  subLayers = [@../../etc/shadow@]\n)\n",
    ])
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/link.usda", withDestinationPath: outside.path + "/secret.usda")
    for name in ["up", "absolute", "linked", "stacked"] {
      #expect(throws: ModelError.self, "\(name)") { try ModelAsset.load(path: folder.path + "/\(name).usda") }
      do {
        _ = try ModelAsset.load(path: folder.path + "/\(name).usda")
      } catch {
        #expect("\(error)".contains("outside the file's folder"), "\(error)")
      }
    }
  }

  @Test("a reference to a MaterialX document is left to the material's default, not read as a layer")
  func materialX() throws {
    let folder = try Self.folder([
      "root.usda": """
      (metersPerUnit = 1)
      def Xform "World" {
        def Cube "Box" {}
        def Scope "Looks" (references = @./plastic.mtlx@</MaterialX>) {}
      }
      """,
      "plastic.mtlx": "<?xml version=\"1.0\"?><materialx version=\"1.38\"></materialx>\n",
    ])
    let model = try ModelAsset.load(path: folder.path + "/root.usda")
    #expect(model.mesh.triangleCount == 12)
  }

  @Test(
    "layer offsets in a text layer's reference (after a prim path too), internal reference and sublayer list are read and applied without a word"
  )
  func layerOffsets() throws {
    let folder = try Self.folder([
      "moved.usda": """
      def "World" (
        prepend references = @./part.usda@</Part> (offset = 2)
      ) {}
      def "Echo" (references = [</World> (offset = 1; scale = 2)]) {}
      """,
      "listed.usda": "(\n  subLayers = [@./part.usda@ (offset = 0; scale = 1)]\n)\n",
      "part.usda": "def Cube \"Part\" {}\n",
    ])
    let moved = try ModelAsset.load(path: folder.path + "/moved.usda")
    #expect(!moved.warnings.contains { $0.contains("layer offset") } && moved.mesh.triangleCount == 24)
    let listed = try ModelAsset.load(path: folder.path + "/listed.usda")
    #expect(!listed.warnings.contains { $0.contains("layer offset") } && listed.mesh.triangleCount == 12)
  }

  @Test(
    "a rate of time codes that is not positive: a framesPerSecond refused as usd-core refuses it, a timeCodesPerSecond named and passed over for framesPerSecond"
  )
  func framesAndTimeCodesPerSecond() throws {
    let animated = """
      def Cube "Box" {
        double3 xformOp:translate.timeSamples = { 0: (0, 0, 0), 12: (12, 0, 0) }
        uniform token[] xformOpOrder = ["xformOp:translate"]
      }
      """
    let folder = try Self.folder([
      "noTimeCodes.usda": "(\n  metersPerUnit = 1\n  timeCodesPerSecond = 0\n  framesPerSecond = 12\n)\n"
        + animated,
      "noFrames.usda": "(\n  metersPerUnit = 1\n  framesPerSecond = -1\n)\n" + animated,
    ])
    // Half a second is time code 6 at framesPerSecond's rate (12, the last sample, at USD's 24).
    let model = try ModelAsset.load(path: folder.path + "/noTimeCodes.usda", time: 0.5)
    #expect(
      model.warnings.contains {
        $0.contains("noTimeCodes.usda: line 4: timeCodesPerSecond 0.0 is not a positive rate")
      })
    #expect(abs(ModelStatistics(model).bounds!.min[0] - 5) < 1e-9)
    #expect {
      _ = try ModelAsset.load(path: folder.path + "/noFrames.usda")
    } throws: { error in
      "\(error)".contains("noFrames.usda: line 4: framesPerSecond -1.0 is not a positive rate")
    }
    // usd-core's crate reader takes both rates at 0: both are named, and USD's 24 a second used.
    let binary = try ModelAsset.load(path: Fixtures.path("usd/unusable-rates.usdc"), time: 0.5)
    for field in ["timeCodesPerSecond", "framesPerSecond"] {
      #expect(binary.warnings.contains { $0.contains("layer metadata: \(field) 0.0 is not a positive rate") })
    }
    #expect(abs(ModelStatistics(binary).bounds!.min[0] - 11) < 1e-9)
  }

  @Test(
    "a binary layer's upAxis stored as a string, not a token: read as Y up, as usd-core's viewers take it, and said"
  )
  func stringUpAxis() throws {
    // usd-core wrote a token and the generator rewrote it to a string (Tools/generate-usd-fixtures):
    // usd-core's GetStageUpAxis then raises a type error. The triangle (0 0 0) (1 0 0) (0 0 1)
    // stays as authored; read as Z up it would stand up to (0, 1, 0).
    let model = try ModelAsset.load(path: Fixtures.path("usd/string-up-axis.usdc"))
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(0, 0, 0) && box.max == SIMD3(1, 0, 1), "\(box)")
    #expect(model.warnings.contains { $0.contains("upAxis Z is stored as a string, not a token") })
  }

  @Test(
    "a binary layer's layer offsets (a reference's, two payloads' from crate 0.8, a sublayer's) are read and applied without a word"
  )
  func binaryLayerOffsets() throws {
    // usd-core wrote it (Tools/generate-usd-fixtures); its BBoxCache box is (-1, -1, -1) to (6, 6, 1).
    let model = try ModelAsset.load(path: Fixtures.path("usd/layer-offsets/offsets.usdc"))
    let box = try #require(model.declaredBounds)
    #expect(box.min == SIMD3(-1, -1, -1) && box.max == SIMD3(6, 6, 1), "\(box)")
    #expect(model.mesh.triangleCount == 36)
    #expect(!model.warnings.contains { $0.contains("layer offset") }, "\(model.warnings)")
  }

  @Test(
    "a layer offset USD does not apply (a scale of 0 or less, a number that is not finite) is named and not applied, as usd-core applies none"
  )
  func invalidLayerOffsets() throws {
    let moving = """
      (defaultPrim = "C"; metersPerUnit = 1)
      def Cube "C" {
          double3 xformOp:translate.timeSamples = { 0: (0, 0, 0), 24: (24, 0, 0) }
          uniform token[] xformOpOrder = ["xformOp:translate"]
      }
      """
    let folder = try Self.folder([
      "moving.usda": moving, "moving2.usda": moving.replacingOccurrences(of: "\"C\"", with: "\"D\""),
      "root.usda": """
      (metersPerUnit = 1; subLayers = [@./moving2.usda@ (offset = 5; scale = -2)])
      def "R" (references = @./moving.usda@ (offset = 12; scale = 0)) {}
      """,
    ])
    // usd-core: both cubes at x = 12 at 0.5 s (time code 12), as without the offsets; the same
    // in a binary layer usd-core wrote (a reference's scale -1, a sublayer's 0).
    for (path, named) in [
      (
        folder.path + "/root.usda",
        [
          ("root.usda: line 2", "./moving2.usda", "offset 5.0, scale -2.0"),
          ("root.usda: line 3", "./moving.usda", "offset 12.0, scale 0.0"),
        ]
      ),
      (
        Fixtures.path("usd/layer-offsets/invalid.usdc"),
        [
          ("invalid.usdc: subLayers", "./moving.usda", "offset 5.0, scale 0.0"),
          ("invalid.usdc: /R", "./moving.usda", "offset 4.0, scale -1.0"),
        ]
      ),
    ] {
      let model = try ModelAsset.load(path: path, time: 0.5)
      let box = try #require(ModelStatistics(model).bounds)
      #expect(box.min[0] == 11 && box.max[0] == 13, "\(box)")
      for (place, file, shift) in named {
        #expect(
          model.warnings.contains {
            $0.contains("\(place): the layer offset of @\(file)@ (\(shift)) is not a valid one")
          }, "\(model.warnings)")
      }
    }
  }

  @Test(
    "a prim naming value clips (clips or clipSets), which are not read, is named in a warning, text and binary"
  )
  func valueClips() throws {
    let folder = try Self.folder([
      "clipped.usda": """
      (metersPerUnit = 1)
      def Cube "Box" (
          clips = { dictionary default = { asset[] assetPaths = [@./clip.usda@]; string primPath = "/Box" } }
      ) {}
      def Cube "Other" (clipSets = ["default"]) {}
      """
    ])
    let text = try ModelAsset.load(path: folder.path + "/clipped.usda")
    for (line, prim) in [(4, "/Box"), (6, "/Other")] {
      #expect(
        text.warnings.contains {
          $0.contains("clipped.usda: line \(line): \(prim) names value clips, which are not read")
        },
        "\(text.warnings)")
    }
    // usd-core wrote it (Tools/generate-usd-fixtures) and reads the clip: the box at x = 12 at
    // time code 12; ARScene leaves it at 0 and says why.
    let binary = try ModelAsset.load(path: Fixtures.path("usd/value-clips.usdc"), time: 0.5)
    #expect(
      binary.warnings.contains { $0.contains("value-clips.usdc: /Box names value clips, which are not read") }
    )
  }

  @Test(
    "references and a payload a sublayer adds, deleted by a stronger layer's list ops that name the same files by other relative paths, are not composed (text and binary), as in usd-core",
    arguments: ["root.usda", "root.usdc"])
  func deletedArcs(file: String) throws {
    // usd-core (Tools/generate-usd-fixtures) draws /B (one of its two references left: a cube
    // of size 4) and /D, from (-2, -2, -2) to (2, 2, 2).
    let model = try ModelAsset.load(path: Fixtures.path("usd/deleted-arcs/" + file))
    #expect(model.mesh.triangleCount == 24)
    let box = try #require(ModelStatistics(model).bounds)
    #expect(box.min == [-2, -2, -2] && box.max == [2, 2, 2], "\(box)")
  }

  @Test("an attribute animated by a spline, which is not read, is named in a warning, text and binary")
  func splines() throws {
    let folder = try Self.folder([
      "turned.usda": """
      (metersPerUnit = 1)
      def Cube "C" {
          double xformOp:rotateY.spline = {
              bezier,
              0: 0; post linear,
              24: 90; post linear,
          }
          uniform token[] xformOpOrder = ["xformOp:rotateY"]
      }
      """
    ])
    let text = try ModelAsset.load(path: folder.path + "/turned.usda", time: 0.5)
    #expect(
      text.warnings.contains {
        $0.contains("turned.usda: line 4: /C.xformOp:rotateY is animated by a spline")
      })
    // usd-core wrote it (crate 0.12, Tools/generate-usd-fixtures) and turns the cube 45° at 0.5 s.
    let binary = try ModelAsset.load(path: Fixtures.path("usd/spline.usdc"), time: 0.5)
    #expect(
      binary.warnings.contains { $0.contains("spline.usdc: /C.xformOp:rotateY is animated by a spline") })
  }

  @Test(
    "what a layer says of an instanceable prim's descendants is left out with a warning (its prototype's stand), text and binary, as usd-core leaves it out"
  )
  func instanceOverrides() throws {
    let folder = try Self.folder([
      "asset.usda":
        "(defaultPrim = \"Asset\")\ndef Xform \"Asset\" {\n  def Cube \"Body\" {\n    double size = 1\n  }\n}\n",
      "root.usda": """
      (metersPerUnit = 1)
      def "A" (instanceable = true; references = @./asset.usda@) {
          double3 xformOp:translate = (5, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:translate"]
          over "Body" { double size = 10 }
      }
      def "B" (references = @./asset.usda@) {
          over "Body" { double size = 3 }
      }
      """,
    ])
    // usd-core's BBoxCache (Tools/generate-usd-fixtures wrote the binary one): /A's cube keeps
    // its size of 1, at x = 5; /B's is 3.
    for path in [folder.path + "/root.usda", Fixtures.path("usd/instance-overrides/root.usdc")] {
      let model = try ModelAsset.load(path: path)
      let box = try #require(ModelStatistics(model).bounds)
      #expect(box.min == [-1.5, -1.5, -1.5] && box.max == [5.5, 1.5, 1.5], "\(path): \(box)")
      #expect(
        model.warnings.contains {
          $0.contains("/A is instanceable: what this layer says of the 1 prims under it (/A/Body)")
        },
        "\(model.warnings)")
    }
  }

  @Test("a prim inheriting a class takes its opinions; inheriting a class no layer defines adds nothing")
  func inheritedClass() throws {
    let folder = try Self.folder([
      "inherit.usda": """
      (metersPerUnit = 1)
      class "_Big" { double size = 4 }
      def Cube "A" (inherits = </_Big>) {}
      def Cube "B" (inherits = </_Nowhere>) { double3 xformOp:translate = (10, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"] }
      """
    ])
    let box = try #require(try Self.bounds(folder.path + "/inherit.usda"))
    // A is 4 m across (±2) from its class; B keeps the cube's own 2 m (9 to 11).
    #expect(abs(box.min.x + 2) < 1e-12 && abs(box.max.x - 11) < 1e-12, "\(box)")
  }

  @Test("a layer reached through a linked folder reads the files beside it")
  func linkedFolder() throws {
    let real = try Self.folder([
      "root.usda": "(metersPerUnit = 1)\ndef \"A\" (references = @./part.usda@) {}\n",
      "part.usda": "(defaultPrim = \"Part\")\ndef Cube \"Part\" {}\n",
    ])
    let links = try TemporaryFolder()
    try FileManager.default.createSymbolicLink(atPath: links.path + "/asset", withDestinationPath: real.path)
    #expect(try ModelAsset.load(path: links.path + "/asset/root.usda").mesh.triangleCount == 12)
  }

  @Test(
    "a stronger layer's time samples over a weaker layer's default: the default at the default time, the samples at a time"
  )
  func defaultBelowSamples() throws {
    // usdImagingGL's arm_baked.usda bakes its arm's points as time samples over arm.usda's
    // defaults: usd-core reads the defaults at the default time, ARScene read nothing there.
    let folder = try Self.folder([
      "root.usda": """
      (
          metersPerUnit = 1
          upAxis = "Y"
          subLayers = [@./base.usda@]
      )
      over "Box"
      {
          double3 xformOp:translate.timeSamples = {
              0: (0, 10, 0),
          }
      }
      """,
      "base.usda": """
      def Cube "Box"
      {
          double3 xformOp:translate = (5, 0, 0)
          uniform token[] xformOpOrder = ["xformOp:translate"]
      }
      """,
    ])
    let path = folder.path + "/root.usda"
    // usd-core: (4, -1, -1) to (6, 1, 1) at the default time, (-1, 9, -1) to (1, 11, 1) at time 0.
    let still = try #require(try Self.bounds(path))
    #expect(still.min == SIMD3(4, -1, -1) && still.max == SIMD3(6, 1, 1), "\(still)")
    let moved = try #require(try ModelAsset.load(path: path, time: 0).declaredBounds)
    #expect(moved.min == SIMD3(-1, 9, -1) && moved.max == SIMD3(1, 11, 1), "\(moved)")
  }
}
