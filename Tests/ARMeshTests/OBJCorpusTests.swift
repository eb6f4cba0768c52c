import ARMesh
import ARTestSupport
import Foundation
import Testing

/// The committed OBJ corpus: every good file's statistics (cross-checked against tinyobjloader
/// by Tools/crosscheck-obj-fixtures), and every bad file's error.
@Suite("OBJ corpus")
struct OBJCorpusTests {
  static let expected: [String: OBJStatistics] = {
    let data = FileManager.default.contents(atPath: Fixtures.path("obj/expected.json"))!
    return try! JSONDecoder().decode([String: OBJStatistics].self, from: data)
  }()

  @Test("statistics of every good file match the expected counts", arguments: expected.keys.sorted())
  func statistics(_ name: String) throws {
    let asset = try OBJAsset.load(path: Fixtures.path("obj/\(name)"))
    #expect(OBJStatistics(asset) == Self.expected[name])
    #expect(asset.mesh.triangleCount == Self.expected[name]?.triangles)
  }

  static let badFiles: [(String, OBJError)] = [
    (
      "index_zero.obj",
      .badIndex(
        path: p("index_zero.obj"), line: 4, column: 3, text: "0",
        reason: "indices start at 1 (0 is not allowed)")
    ),
    (
      "index_range.obj",
      .badIndex(
        path: p("index_range.obj"), line: 4, column: 7, text: "4",
        reason: "refers to vertex 4, but only 3 defined before this line")
    ),
    (
      "forward_reference.obj",
      .badIndex(
        path: p("forward_reference.obj"), line: 2, column: 5, text: "2",
        reason: "refers to vertex 2, but only 1 defined before this line")
    ),
    ("face_two.obj", .tooFewCorners(path: p("face_two.obj"), line: 3, column: 1, statement: "f", count: 2)),
    ("nan.obj", .badNumber(path: p("nan.obj"), line: 2, column: 3, text: "nan")),
    ("number.obj", .badNumber(path: p("number.obj"), line: 2, column: 5, text: "0x")),
    ("past_float.obj", .pastSinglePrecision(path: p("past_float.obj"), line: 2, column: 3, text: "1e39")),
    (
      "past_float_offset.obj",
      .pastSinglePrecisionFromOrigin(path: p("past_float_offset.obj"), line: 3, column: 2, offset: -6e38)
    ),
    (
      "truncated.obj",
      .badArity(path: p("truncated.obj"), line: 3, column: 2, statement: "v", expected: "3, 4 or 6", got: 2)
    ),
    (
      "vn_arity.obj",
      .badArity(path: p("vn_arity.obj"), line: 1, column: 3, statement: "vn", expected: "3", got: 2)
    ),
    (
      "unknown_statement.obj",
      .unknownStatement(path: p("unknown_statement.obj"), line: 2, column: 1, keyword: "vertex")
    ),
    (
      "utf16.obj",
      .encoding(
        path: p("utf16.obj"), line: 1, column: 1, reason: "UTF-16 text; OBJ files must be UTF-8 or ASCII")
    ),
    (
      "missing_mtl.obj",
      .missingFile(path: p("missing_mtl.obj"), line: 1, referenced: "nowhere.mtl", what: "material library")
    ),
    ("undefined_material.obj", .unknownMaterial(path: p("undefined_material.obj"), line: 4, name: "ghost")),
    (
      "missing_texture.obj",
      .missingTexture(path: p("missing_texture.mtl"), line: 3, texture: p("no such.png"), material: "a")
    ),
  ]
  static func p(_ name: String) -> String { Fixtures.path("obj/bad/\(name)") }

  @Test("each bad file fails with the error that names its place", arguments: badFiles)
  func badFile(_ name: String, _ error: OBJError) {
    #expect(throws: error) { try OBJAsset.load(path: Self.p(name)) }
  }

  @Test("binary garbage is refused as not text")
  func binary() {
    #expect {
      try OBJAsset.load(path: Self.p("binary.obj"))
    } throws: { error in
      guard case .encoding(_, 1, _, let reason) = error as? OBJError else { return false }
      return reason.hasPrefix("binary data")
    }
  }

  @Test("lenient loading turns missing libraries, materials and textures into warnings")
  func lenient() throws {
    for name in ["missing_mtl.obj", "undefined_material.obj", "missing_texture.obj", "unknown_statement.obj"]
    {
      let asset = try OBJAsset.load(path: Self.p(name), lenient: true)
      #expect(!asset.warnings.isEmpty, "\(name)")
    }
    let textured = try OBJAsset.load(path: Self.p("missing_texture.obj"), lenient: true)
    #expect(textured.libraryMaterials[0].diffuseTexture == nil)
    #expect(textured.mesh.materials[textured.mesh.submeshes[0].material].name == "a")
  }

  @Test("names in Windows-1252 (Latin-1) are decoded, and said to be, in both modes")
  func windows1252() throws {
    for lenient in [false, true] {
      let asset = try OBJAsset.load(path: Fixtures.path("obj/latin1_names.obj"), lenient: lenient)
      #expect(asset.model.objectNames == ["Brána – gate"] && asset.model.groupNames == ["zámek"])
      #expect(asset.libraryMaterials.map(\.name) == ["dørken eg", "€-stone"])
      #expect(asset.mesh.materials.map(\.name) == ["dørken eg", "€-stone"])
      let said = asset.warnings.filter { $0.message.contains("Windows-1252") }.map(\.line)
      #expect(said == [3, 2])  // the OBJ's first name, the MTL's first line that is not UTF-8
    }
  }

  @Test("a bare usemtl means no material: faces after it take the default material")
  func bareUsemtl() throws {
    let asset = try OBJAsset.load(path: Fixtures.path("obj/usemtl_empty.obj"))
    #expect(asset.warnings.isEmpty)
    let names = asset.mesh.submeshes.map { asset.mesh.materials[$0.material].name }
    #expect(names == ["checker", Material.fallback.name])
    #expect(asset.mesh.submeshes.map(\.triangles.count) == [1, 2])
  }

  @Test("MTL statements ARScene does not use are warnings, never errors, strict or lenient")
  func unknownMTLStatements() throws {
    let unused = [
      "Km", "Pr", "Pm", "Ps", "Pc", "Pcr", "aniso", "anisor", "map_Pr", "map_Pm", "map_Ns", "disp", "decal",
      "refl",
    ]
    for lenient in [false, true] {
      let asset = try OBJAsset.load(path: Fixtures.path("obj/mtl_extensions.obj"), lenient: lenient)
      let messages = asset.warnings.map(\.message)
      for keyword in unused { #expect(messages.contains { $0.contains("'\(keyword)'") }, "\(keyword)") }
      #expect(messages.contains("unknown statement 'Xvendor_tint' was ignored"))
      #expect(asset.libraryMaterials[0].bumpTexture != nil && asset.libraryMaterials[0].diffuse.x == 0.8)
    }
  }

  @Test("a material statement before any newmtl is an error, and a warning when lenient")
  func statementBeforeNewmtl() throws {
    let text = Array("Kd 1 0 0\nnewmtl a\nKd 0 1 0\n".utf8)
    expectError(OBJError.self, "unknownStatement") { try MTLReader.parse(text, path: "early.mtl") }
    let (materials, warnings) = try MTLReader.parse(text, path: "early.mtl", lenient: true)
    #expect(materials.map(\.name) == ["a"] && warnings.map(\.line) == [1])
  }

  @Test("a missing file is an error naming it")
  func missing() {
    expectError(OBJError.self, "unreadable") { try OBJAsset.load(path: Self.p("no-such-file.obj")) }
  }

  @Test(
    "a bare newmtl, as assimp's empty_mat.mtl has it: an error, and with lenient an unnamed material and a warning"
  )
  func bareNewmtl() throws {
    let bytes = Array("newmtl\nKd 1 0 0\n".utf8)
    #expect(throws: OBJError.self) { try MTLReader.parse(bytes, path: "empty_mat.mtl") }
    let (materials, warnings) = try MTLReader.parse(bytes, path: "empty_mat.mtl", lenient: true)
    #expect(materials.count == 1 && materials[0].name.isEmpty && materials[0].diffuse == SIMD3(1, 0, 0))
    #expect(warnings.count == 1 && "\(warnings[0])".contains("empty_mat.mtl:1"))
  }
}
