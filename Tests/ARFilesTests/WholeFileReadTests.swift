import ARFiles
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Whole-file reads: a regular file straight into its bytes; a pipe or a device refused, never
/// waited on; errors that name the file.
@Suite("Whole-file reads")
struct WholeFileReadTests {
  @Test(
    "a regular file's bytes, an empty file's none, every byte value kept, across read sizes and the size from which a file is read in parts on several threads"
  )
  func regularFiles() throws {
    let folder = try TemporaryFolder()
    var generator = SplitMix64(seed: 67)
    for size in [0, 1, 4095, 4096, 4097, 1 << 20, (1 << 20) + 13, (4 << 20) - 1, 4 << 20, (4 << 20) + 7] {
      let bytes = (0..<size).map { _ in UInt8.random(in: 0 ... .max, using: &generator) }
      let path = folder.path + "/file-\(size).bin"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      #expect(try FileIO.read(path) == bytes, "\(size) bytes")
    }
  }

  @Test("a named pipe and a device are refused, naming what they are, without waiting for a writer")
  func notRegular() throws {
    let folder = try TemporaryFolder()
    let pipe = folder.path + "/pipe"
    #expect(mkfifo(pipe, 0o600) == 0)
    #expect(throws: FileIOError.unreadable(path: pipe, reason: "not a regular file (a FIFO)")) {
      try FileIO.read(pipe)
    }
    #expect(
      throws: FileIOError.unreadable(path: "/dev/zero", reason: "not a regular file (a character device)")
    ) {
      try FileIO.read("/dev/zero")
    }
  }

  @Test("a missing file, a folder and an unreadable file are errors naming the path")
  func failures() throws {
    let folder = try TemporaryFolder()
    #expect(throws: FileIOError.missing(path: folder.path + "/none")) {
      try FileIO.read(folder.path + "/none")
    }
    #expect(throws: FileIOError.unreadable(path: folder.path, reason: "is a directory")) {
      try FileIO.read(folder.path)
    }
    // Root reads any file: the permission check only holds for others.
    guard getuid() != 0 else { return }
    let locked = try folder.write("secret", to: "locked.txt")
    #expect(chmod(locked, 0) == 0)
    #expect(throws: FileIOError.self) { try FileIO.read(locked) }
  }
}
