import ARFiles
import Foundation
import Testing

/// A UTF-8 byte-order mark before a text file's first line (as Windows editors write one) is no
/// part of the first field, whichever way the file is read; elsewhere it is kept.
@Suite("Byte-order marks")
struct ByteOrderMarkTests {
  static func file(_ bytes: [UInt8]) throws -> String {
    let path = NSTemporaryDirectory() + "arscene-bom-\(UInt32.random(in: 0 ... .max)).txt"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("whole-file text reads and line reads drop it before the first line only")
  func dropped() throws {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let path = try Self.file(bom + Array("1 2\n".utf8) + bom + Array("3 4\n".utf8))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try FileIO.readText(path) == Array("1 2\n".utf8) + bom + Array("3 4\n".utf8))
    #expect(try FileIO.read(path).starts(with: bom))  // bytes as they are, for binary files
    let lines = try LineReader(path: path)
    #expect(try lines.next() == Array("1 2".utf8))
    #expect(try lines.next() == bom + Array("3 4".utf8))
  }
}
