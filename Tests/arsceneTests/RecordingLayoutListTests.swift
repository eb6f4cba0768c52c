import ARRecording
import ARTestSupport
import Foundation
import Testing

/// The recording layouts are listed once, in `RecordingFormat`: the command's help, the manual
/// and the schema name every case, so a new layout cannot be half-registered.
@Suite("One list of recording layouts")
struct RecordingLayoutListTests {
  static let root = ArsceneRunner.packageRoot.path

  @Test("arscene recording --help and recording info --help name every layout")
  func help() throws {
    let top = try ArsceneRunner.run(["recording", "--help"])
    let info = try ArsceneRunner.run(["recording", "info", "--help"])
    // Help wraps its lines: compare with the words joined by single spaces.
    let flat = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    let (summary, flattened) = (flat(top.stdout), flat(info.stdout))
    for format in RecordingFormat.allCases {
      #expect(summary.contains(format.title), "\(format.title) missing from recording --help")
      #expect(flattened.contains(format.rawValue), "\(format.rawValue) missing from --from's help")
    }
  }

  @Test("docs/recordings.md's --from list is every layout, in order; each has a section")
  func manual() throws {
    let text = try String(contentsOfFile: Self.root + "/docs/recordings.md", encoding: .utf8)
    let from = "--from " + RecordingFormat.allCases.map(\.rawValue).joined(separator: "|")
    #expect(text.contains(from), "docs/recordings.md should say \(from)")
    let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.joined(separator: "\n")
    for format in RecordingFormat.allCases where format != .arscene {
      #expect(headings.contains(format.title), "no section for \(format.title) in docs/recordings.md")
    }
  }

  @Test("recording.schema.json's header source examples are every layout and simulate")
  func schema() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/docs/recording.schema.json"))
    let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let definitions = try #require((schema["$defs"] ?? schema["definitions"]) as? [String: Any])
    let header = try #require(definitions["header"] as? [String: Any])
    let properties = try #require(header["properties"] as? [String: Any])
    let source = try #require(properties["source"] as? [String: Any])
    let examples = try #require(source["examples"] as? [String])
    #expect(Set(examples) == Set(RecordingFormat.allCases.map(\.rawValue) + ["simulate"]))
  }
}
