import ARFiles
import ARImage
import ARTestSupport
import Foundation
import Testing

@testable import ARVideo

/// A video that cannot be finished is an error, never a file: the MP4's box structure is
/// checked (ffmpeg can exit 0 without writing `moov`), the output path is held to what every
/// output is, and ffmpeg is known to `ChildProcesses` while it runs.
@Suite("Video failures")
struct VideoFailureTests {
  /// A finished two-frame video's bytes.
  static func finishedVideo(in folder: TemporaryFolder) throws -> [UInt8] {
    let path = folder.path + "/ok.mp4"
    let writer = try VideoWriter(path: path, width: 64, height: 48, framesPerSecond: 10)
    for k in 0..<2 { try writer.append(VideoRoundTripTests.frame(k)) }
    try writer.finish()
    return try FileIO.read(path)
  }

  @Test("a finished MP4 passes; cut short, or without moov, it is named as unfinished")
  func boxes() throws {
    let folder = try TemporaryFolder()
    let bytes = try Self.finishedVideo(in: folder)
    func problem(_ bytes: [UInt8]) throws -> String? {
      let path = folder.path + "/check.mp4"
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return MP4Boxes.problem(inFileAt: path)
    }
    #expect(try problem(bytes) == nil)
    #expect(try problem(Array(bytes.prefix(bytes.count - 100)))?.contains("runs past the end") == true)
    // With +faststart, moov comes before mdat; renamed, the file has no movie header.
    let moov = try #require((0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual("moov".utf8) })
    var renamed = bytes
    renamed.replaceSubrange(moov..<moov + 4, with: Array("free".utf8))
    #expect(try problem(renamed)?.contains("no 'moov' box") == true)
    #expect(try problem([])?.contains("no 'ftyp'") == true)
    #expect(try problem([0, 0, 0])?.contains("ends inside a box header") == true)
  }

  @Test("a missing folder and a non-regular path fail at the start, before any frame")
  func badPaths() throws {
    let folder = try TemporaryFolder()
    #expect(throws: VideoError.self) {
      try VideoWriter(path: folder.path + "/missing/v.mp4", width: 64, height: 48, framesPerSecond: 10)
    }
    #expect(
      throws: VideoError.unwritable(
        path: "/dev/null", reason: "cannot write: exists and is not a regular file (a character device)")
    ) {
      try VideoWriter(path: "/dev/null", width: 64, height: 48, framesPerSecond: 10)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("a writer dropped unfinished leaves no temporary file and no ffmpeg")
  func dropped() throws {
    let folder = try TemporaryFolder()
    do {
      let writer = try VideoWriter(path: folder.path + "/v.mp4", width: 64, height: 48, framesPerSecond: 10)
      try writer.append(VideoRoundTripTests.frame(0))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }
}
