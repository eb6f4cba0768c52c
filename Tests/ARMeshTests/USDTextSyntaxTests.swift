import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// What USD's text format allows that simple writers use, each read as usd-core 26.11 reads it:
/// statements ending in semicolons, numbers written from their decimal point, `@@@` asset paths
/// holding an escaped `@@@`, a mesh with points but no faces, and a binary empty array. Each case is one of tinyusdz's
/// test layers (lighttransport/tinyusdz, `tests/usda`), made smaller.
@Suite("USD syntax as usd-core reads it")
struct USDTextSyntaxTests {
  static func layer(_ text: String) throws -> USDLayer {
    try USDTextLayer.read(ArraySlice(Array(("#usda 1.0\n" + text).utf8)), path: "syntax.usda")
  }

  @Test("statements may end in a semicolon, in metadata and in a prim's body (stmt-semicolon-000)")
  func semicolons() throws {
    let layer = try Self.layer(
      """
      (
        upAxis = "Z";
        metersPerUnit = 1;
      )
      def Xform "hello"
      {
          def Sphere "world"
          {
              double radius = 1.2;
              custom double userProperties:muda = 2.2;
          }
      }

      """)
    #expect(layer.metersPerUnit == 1 && layer.upAxis == "Z")
    guard case .double(let radius)? = layer.values["/hello/world.radius"] else {
      Issue.record("\(layer.values)")
      return
    }
    #expect(radius == 1.2)
  }

  @Test(
    "what usd-core 26.11 reads and no exporter here wrote: a layer doc string, relocates, expression variables, an empty symmetryFunction, @@@ asset paths, timecode, opaque and pathExpression attributes, a spline, deleted relationships and references, a relationship's default"
  )
  func grammarCorners() throws {
    // Tests/Fixtures/usd/syntax/grammar-corners.usda: usd-core's BBoxCache bounds its cube
    // from (0, 1, 2) to (2, 3, 4); the deleted reference names a file that is not there.
    let model = try ModelAsset.load(path: Fixtures.path("usd/syntax/grammar-corners.usda"))
    #expect(model.mesh.triangleCount == 12)
    let box = try #require(ModelStatistics(model).bounds)
    #expect(box.min == [0, 1, 2] && box.max == [2, 3, 4], "\(box)")
    #expect(model.warnings.contains { $0.contains("/A.a is animated by a spline") }, "\(model.warnings)")
  }

  @Test("a number may start at its decimal point: .001, -.5 (floating-point-001)")
  func leadingDecimalPoint() throws {
    let layer = try Self.layer(
      "(\n    metersPerUnit = .001\n)\ndef Sphere \"s\"\n{\n    double radius = -.5\n}\n")
    #expect(layer.metersPerUnit == 0.001)
    guard case .double(let radius)? = layer.values["/s.radius"] else {
      Issue.record("\(layer.values)")
      return
    }
    #expect(radius == -0.5)
  }

  @Test("a triple-@ asset path keeps an escaped @@@ as @@@ (triple-quoted-assetpath-001)")
  func tripleAtAssetPath() throws {
    let layer = try Self.layer(
      "def Shader \"t\"\n{\n    asset inputs:file = @@@0/teapot_\\@@@n.png@@@\n}\n")
    guard case .token(let file)? = layer.values["/t.inputs:file"] else {
      Issue.record("\(layer.values)")
      return
    }
    #expect(file == "0/teapot_@@@n.png")
  }

  @Test("a mesh with points but no faces is not drawn, says so, and is bounded by its points (geommesh-001)")
  func facelessMesh() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/points.usda"
    try
      "#usda 1.0\ndef Mesh \"mymesh\"\n{\n    point3f[] points = [(0.0, 0.1, 0.2), (0.3, 0.4, 0.5), (0.6, 0.7, 0.8)]\n}\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let model = try ModelAsset.load(path: path)
    // usd-core: (0, 0.001, 0.002) to (0.006, 0.007, 0.008) m, at the fallback centimetre.
    let box = try #require(model.declaredBounds)
    let (low, high) = (SIMD3<Double>(0, 0.001, 0.002), SIMD3<Double>(0.006, 0.007, 0.008))
    let apart = [box.min - low, low - box.min, box.max - high, high - box.max].map { $0.max() }.max()!
    #expect(apart < 1e-9, "\(box)")
    #expect(model.mesh.triangleCount == 0)
    #expect(model.warnings.contains { $0.contains("1 mesh not drawn, with points but no faceVertexCounts") })
  }

  @Test(
    "a binary layer's empty array (no data: its rep points at byte 0) reads as empty (tinyusdz's array-empty-001)"
  )
  func emptyBinaryArray() throws {
    // usd-core wrote it (Tools/generate-usd-fixtures): a triangle with an empty int[] primvar.
    let model = try ModelAsset.load(path: Fixtures.path("usd/empty-array.usdc"))
    #expect(model.mesh.triangleCount == 1)
  }

  @Test(
    "a relative relationship target or connection is anchored at its prim, as SdfPath.MakeAbsolutePath anchors it",
    arguments: [
      ("Prototypes/Mesh", "/World/Instancer/Prototypes/Mesh"), ("../Looks/Red", "/World/Looks/Red"),
      (".", "/World/Instancer"), ("./Child", "/World/Instancer/Child"), ("..", "/World"),
      ("../../Top.outputs:surface", "/Top.outputs:surface"), ("/Absolute", "/Absolute"),
      (".inputs:varname", "/World/Instancer.inputs:varname"),
    ])
  func relativeTargets(_ target: String, _ absolute: String) {
    // usdImagingGL's testFiltering.usda names its prototype `<Prototypes/Mesh>`: read as written,
    // no prototype was found and its instances were not drawn.
    #expect(USDTextLayer.absolute(target, anchor: "/World/Instancer") == absolute)
  }

  @Test("C++ comments are skipped as Sdf's lexer skips them: // to the line's end, /* */ across lines")
  func cppComments() throws {
    // usdLux's root.usda writes `// Pre-published light list`: ARScene stopped at the `/`.
    let folder = try TemporaryFolder()
    let path = try folder.write(
      """
      #usda 1.0
      (
          metersPerUnit = 1
      )
      // A comment before the prim.
      def Mesh "T" /* a comment
      over two lines */ {
          int[] faceVertexCounts = [3]  // one triangle
          int[] faceVertexIndices = [0, 1, 2]
          point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
      }
      """, to: "comments.usda")
    #expect(try ModelAsset.load(path: path).mesh.triangleCount == 1)
    try "#usda 1.0\n/* never closed\ndef Xform \"A\" {}\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect {
      _ = try ModelAsset.load(path: path)
    } throws: { error in
      "\(error)".contains("unterminated comment")
    }
  }

  @Test("a prim name is an identifier: ASCII names by their fast rule decide as Unicode's XID properties do")
  func identifiers() {
    /// The definition: `_` or XID_Start, then XID_Continue.
    func byProperties(_ name: String) -> Bool {
      guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart else {
        return false
      }
      return name.unicodeScalars.dropFirst().allSatisfy(\.properties.isXIDContinue)
    }
    let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
    var names = ascii + ascii.flatMap { a in ["a", "_", "9", "-", "Z"].flatMap { [a + $0, $0 + a] } }
    names += ["", "Part10", "_1", "1_", "Surface-2", "é", "aé", "Ünter", "名前", "a b"]
    let disagreeing = names.filter { USDTextLayer.isIdentifier($0) != byProperties($0) }
    #expect(disagreeing.isEmpty)
    #expect(USDTextLayer.isIdentifier("Part10") && !USDTextLayer.isIdentifier("1_"))
  }

  @Test("half-precision value types are known by name, arrays and roles included")
  func halfTypes() {
    let half = [
      "half", "half[]", "half3", "half4[]", "point3h", "point3h[]", "normal3h", "texCoord2h[]", "quath",
      "Quath[]",
    ]
    let other = [
      "", "[]", "h", "float3", "point3f[]", "double", "token", "matrix4d", "path", "th",
      "alf[]",
    ]
    #expect(half.allSatisfy(USDValue.isHalf))
    #expect(!other.contains(where: USDValue.isHalf))
  }
}
