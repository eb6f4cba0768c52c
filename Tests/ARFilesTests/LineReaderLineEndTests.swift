import ARFiles
import ARMath
import ARTestSupport
import Foundation
import Testing

/// `LineReader.next()` reads the same lines whatever the file's line ends: LF, CRLF, or an old
/// Mac file's lone CR, at every buffer boundary.
@Suite("Line ends")
struct LineReaderLineEndTests {
  static func lines(of text: String, bufferSize: Int) throws -> [String] {
    let folder = try TemporaryFolder()
    let path = try folder.write(text, to: "lines.txt")
    let reader = try LineReader(path: path, bufferSize: bufferSize)
    var out: [String] = []
    while let line = try reader.next() { out.append(String(decoding: line, as: UTF8.self)) }
    return out
  }

  @Test(
    "seeded lines with LF, CRLF and CR ends, at buffer sizes that cut anywhere", arguments: [64, 67, 1 << 20])
  func seeded(bufferSize: Int) throws {
    var random = SplitMix64(seed: UInt64(bufferSize))
    for end in ["\n", "\r\n", "\r"] {
      for _ in 0..<20 {
        let lines = (0..<Int.random(in: 1...40, using: &random)).map { _ in
          String(repeating: "x", count: Int.random(in: 0...90, using: &random))
        }
        // Without a final line end, an empty last line is no line at all.
        let finalEnd = Bool.random(using: &random) || lines.last == "" ? end : ""
        let text = lines.joined(separator: end) + finalEnd
        let expected = lines
        #expect(try Self.lines(of: text, bufferSize: bufferSize) == expected, "\(end.debugDescription)")
      }
    }
  }

  @Test("a CR inside an LF file's line stays in it; a CR before the final LF is dropped")
  func carriageReturnsInside() throws {
    #expect(try Self.lines(of: "a\r\nb\rc\nd\r", bufferSize: 64) == ["a", "b\rc", "d"])
  }
}
