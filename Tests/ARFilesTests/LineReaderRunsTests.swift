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

  @Test(
    "seeded files cut at random byte ranges: each line after the first is read once, whole, by the range it starts in",
    arguments: [1, 5, 64, 1000])
  func ranges(cut: Int) throws {
    var random = SplitMix64(seed: UInt64(cut) + 99)
    let folder = try TemporaryFolder()
    for file in 0..<5 {
      var text = ""
      for _ in 0..<Int.random(in: 1...200, using: &random) {
        text += String(repeating: "y", count: Int.random(in: 0...(file == 4 ? 70_000 : 300), using: &random))
        text += Bool.random(using: &random) ? "\r\n" : "\n"
      }
      if file % 2 == 1 { text += "last line without an end" }
      let path = try folder.write(text, to: "r\(file).txt")
      let bytes = Array(text.utf8)
      let first = try #require(bytes.firstIndex(of: UInt8(ascii: "\n"))) + 1
      let reader = try #require(LineRangeReader(path: path))
      var joined: [UInt8] = [], offset = Int64(first)
      while offset < reader.size {
        let end = offset + Int64.random(in: 1...Int64(cut), using: &random)
        let run = try reader.lines(startingIn: offset..<end)
        joined += run.text[run.start...]
        offset = end
      }
      #expect(joined == Array(bytes[first...]), "file \(file)")
    }
    #expect(LineRangeReader(path: folder.path) == nil)
  }
}
