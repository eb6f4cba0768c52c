import ARFiles
import ARTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `OutputTarget` and the writers that ask it: only regular files are replaced, never an
/// input, and a file's mode is kept (a new one's follows the umask).
@Suite("Output targets", .serialized)
struct OutputTargetTests {
  @Test("a device, a FIFO, a link and a folder are left as they are")
  func notRegular() throws {
    let folder = try TemporaryFolder()
    #expect(mkfifo(folder.path + "/fifo", 0o600) == 0)
    try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: "target")
    try FileManager.default.createDirectory(atPath: folder.path + "/dir", withIntermediateDirectories: false)
    for (path, kind) in [
      ("/dev/null", "a character device"), (folder.path + "/fifo", "a FIFO"),
      (folder.path + "/link", "a symbolic link"), (folder.path + "/dir", "a directory"),
    ] {
      #expect(
        throws: FileIOError.unwritable(path: path, reason: "exists and is not a regular file (\(kind))")
      ) {
        try FileIO.writeAtomically(Array("x".utf8), to: path)
      }
    }
    var status = stat()
    #expect(lstat(folder.path + "/fifo", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    #expect(lstat(folder.path + "/link", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/target"))
  }

  @Test("an input is never replaced, by its name or a link to it")
  func inputs() throws {
    let folder = try TemporaryFolder()
    let input = try folder.write("recording", to: "walk.jsonl")
    try FileManager.default.linkItem(atPath: input, toPath: folder.path + "/hard.jsonl")
    InputFiles.note(input)
    for path in [input, folder.path + "/hard.jsonl", folder.path + "/./walk.jsonl"] {
      #expect(throws: FileIOError.self, "\(path)") { try FileIO.writeAtomically(Array("x".utf8), to: path) }
    }
    #expect(try String(contentsOfFile: input, encoding: .utf8) == "recording")
    try FileIO.writeAtomically(Array("out".utf8), to: folder.path + "/other.json")
  }

  @Test("an input read while a writer is open stops its commit")
  func inputReadLater() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("old", to: "late.txt")
    let writer = try AtomicFileWriter(path: path)
    try writer.write("new")
    InputFiles.note(path)
    #expect(throws: FileIOError.self) { try writer.commit() }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["late.txt"])
  }

  @Test("an existing file keeps its mode; a new one gets 0666 less the umask")
  func modes() throws {
    let folder = try TemporaryFolder()
    let existing = try folder.write("private", to: "private.json")
    #expect(chmod(existing, 0o600) == 0)
    try FileIO.writeAtomically(Array("still private".utf8), to: existing)
    let fresh = folder.path + "/fresh.json"
    try FileIO.writeAtomically(Array("new".utf8), to: fresh)
    let mask = umask(0o022)
    umask(mask)
    #expect(try Self.mode(existing) == 0o600)
    #expect(try Self.mode(fresh) == 0o666 & ~mask)
  }

  static func mode(_ path: String) throws -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { throw FileIOError.missing(path: path) }
    return status.st_mode & 0o7777
  }
}
