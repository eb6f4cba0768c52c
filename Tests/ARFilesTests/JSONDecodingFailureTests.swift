import ARFiles
import Foundation
import Testing

/// JSON errors in words a user can act on: the line and column of a syntax error, the JSON path
/// and the kinds of a type error, never Swift's type names.
@Suite("JSON decoding failures")
struct JSONDecodingFailureTests {
  struct Scene: Decodable {
    struct Output: Decodable { var width: Int }
    var output: Output
    var anchor: [String: Double]?
  }

  static func failure(_ text: String) -> JSONDecodingFailure? {
    do {
      _ = try JSONDecoder().decode(Scene.self, from: Data(text.utf8))
      return nil
    } catch { return JSONDecodingFailure(error, bytes: Array(text.utf8)) }
  }

  @Test("a syntax error: its line and column, and the text there")
  func syntax() throws {
    let failure = try #require(Self.failure("{\n  \"output\": {\"width\": 10,\n   \"height\": x }\n}"))
    #expect(failure.field == "line 3, column 14")
    #expect(failure.reason.contains("'x }'"), "\(failure.reason)")
  }

  @Test("type errors name the field and say what JSON wanted and found")
  func types() throws {
    let width = try #require(Self.failure(#"{"output": {"width": "ten"}}"#))
    #expect(width.field == "output.width" && width.reason == "expected a whole number, found a string")
    let anchor = try #require(Self.failure(#"{"output": {"width": 1}, "anchor": 5}"#))
    #expect(anchor.field == "anchor" && anchor.reason == "expected an object, found a number")
    let missing = try #require(Self.failure(#"{"output": {}}"#))
    #expect(missing.field == "output.width" && missing.reason == "missing")
  }

  @Test("a quoted text is cut at 60 characters")
  func quoting() {
    #expect(JSONDecodingFailure.quoted(String(repeating: "x", count: 1000)).count == 58)
    #expect(JSONDecodingFailure.quoted("short") == "short")
  }
}
