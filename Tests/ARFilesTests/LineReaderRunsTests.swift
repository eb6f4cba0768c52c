import ARFiles
import ARMath
import ARTestSupport
import Foundation
import Testing

/// `LineReader.nextLines(bytes:)`, which parallel readers split files with: the runs put back
/// together are the file, each run ends at a line's end, and the first line numbers count.
@Suite("Line runs")
struct LineReaderRunsTests {
  @Test("seeded files and run sizes: runs are whole lines, in order, numbered", arguments: [1, 7, 100, 4096])
  func runs(bytes: Int) throws {
    var random = SplitMix64(seed: UInt64(bytes))
    let folder = try TemporaryFolder()
    for file in 0..<5 {
      var text = ""
      for _ in 0..<Int.random(in: 1...300, using: &random) {
        text += String(repeating: "x", count: Int.random(in: 0...300, using: &random))
        text += Bool.random(using: &random) ? "\r\n" : "\n"
      }
      if file % 2 == 1 { text += "last line without an end" }
      let path = try folder.write(text, to: "f\(file).txt")
      let reader = try LineReader(path: path, bufferSize: 64)
      var joined: [UInt8] = [], expectedLine = 1
      while let run = try reader.nextLines(bytes: bytes) {
        #expect(run.firstLine == expectedLine)
        #expect(run.text.last == UInt8(ascii: "\n") || run.text.count + joined.count == text.utf8.count)
        expectedLine += run.text.count { $0 == UInt8(ascii: "\n") }
        joined += run.text
      }
      #expect(joined == Array(text.utf8))
      let newlines = text.utf8.count { $0 == UInt8(ascii: "\n") }
      #expect(reader.lineNumber == newlines + (text.utf8.last == UInt8(ascii: "\n") ? 0 : 1))
    }
  }
}
