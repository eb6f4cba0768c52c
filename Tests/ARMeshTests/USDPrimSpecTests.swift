import ARTestSupport
import Foundation
import Testing

@testable import ARMesh

/// Prim specs usd-core refuses, which a reader that took them would compose wrong without a
/// word: one prim specified twice in a layer (its two specs merged), and prim names that are not
/// identifiers (a `.` in one reads as a path to another prim's property). The cases are
/// tinyusdz's failing test layers (lighttransport/tinyusdz, `tests/usda/fail-case`), made
/// smaller, and a binary layer usd-core wrote with one name's bytes changed after.
@Suite("USD prim specs usd-core refuses")
struct USDPrimSpecTests {
  /// Reading layer text `body` fails, naming the file, `line` and the words `naming`.
  private func expectRefused(_ body: String, line: Int, naming: String) {
    #expect {
      _ = try USDTextSyntaxTests.layer(body)
    } throws: { error in
      let message = "\(error)"
      return message.contains("syntax.usda") && message.contains("line \(line)") && message.contains(naming)
    }
  }

  @Test("a prim defined twice in one layer is refused, naming its second spec's line (over-prim-002)")
  func definedTwice() {
    let mesh = """
      def Mesh "A"
      {
          point3f[] points = [(0, 0, 0), (1, 0, 0), (0, 1, 0)]
      }

      """
    expectRefused(mesh + mesh, line: 6, naming: "prim /A is specified twice")
    // An `over` and a `def` of one name, and two children of one name, are the same case.
    expectRefused("over \"A\"\n{\n}\n" + mesh, line: 5, naming: "prim /A is specified twice")
    expectRefused(
      "def Xform \"A\"\n{\n    def Xform \"B\"\n    {\n    }\n    def Xform \"B\"\n    {\n    }\n}\n",
      line: 7,
      naming: "prim /A/B is specified twice")
  }

  @Test("one name in two variants of a set, or under two parents, is two prims and reads")
  func sameNameElsewhere() throws {
    let layer = try USDTextSyntaxTests.layer(
      """
      def Xform "A" (
          variants = {
              string look = "plain"
          }
          prepend variantSets = "look"
      )
      {
          variantSet "look" = {
              "plain" {
                  def Xform "B"
                  {
                  }
              }
              "fancy" {
                  def Xform "B"
                  {
                  }
              }
          }
      }
      def Xform "C"
      {
          def Xform "B"
          {
          }
      }

      """)
    #expect(layer.prims.map(\.path).filter { $0.hasSuffix("B") }.count == 3, "\(layer.prims)")
  }

  @Test(
    "a prim name that is not an identifier is refused (primname-with-property, invalid-prim-name-000, primname-root)",
    arguments: ["a.bora", "'Sc%pe", "/", "9lives", "a b"])
  func notAnIdentifier(_ name: String) {
    expectRefused("def Xform \"\(name)\"\n{\n}\n", line: 2, naming: "is not an identifier")
  }

  @Test("names of Unicode letters, digits after the first and underscores read, as usd-core's UTF-8 names do")
  func unicodeIdentifiers() throws {
    let layer = try USDTextSyntaxTests.layer("def Xform \"été_1\"\n{\n}\ndef Xform \"_x9\"\n{\n}\n")
    #expect(layer.prims.map(\.path) == ["/été_1", "/_x9"])
  }

  @Test("a binary layer's prim named with a '.' is refused by name, where its points read as another prim's")
  func binaryNameWithDot() {
    #expect {
      _ = try ModelAsset.load(path: Fixtures.path("usd/prim-name-with-dot.usdc"))
    } throws: { error in
      "\(error)".contains("prim-name-with-dot.usdc")
        && "\(error)".contains("a prim named 'Q.otZ', not an identifier")
    }
  }
}
