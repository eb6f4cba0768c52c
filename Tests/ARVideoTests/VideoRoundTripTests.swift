import ARImage
import ARTestSupport
import ARVideo
import Foundation
import Testing

/// Videos through Debian's ffmpeg (installed by Tools/bootstrap --product): frames written as
/// H.264 come back in order, close to what was written, forwards and backwards; a missing file
/// or frame is an error naming it.
@Suite("Video")
struct VideoRoundTripTests {
  /// Frame `k` of a test video: a flat colour that changes from frame to frame, and a bar that
  /// moves across it.
  static func frame(_ k: Int, width: Int = 64, height: Int = 48) -> RGBA8Image {
    var image = RGBA8Image(width: width, height: height, fill: SIMD4(UInt8(40 * k % 256), 120, 200, 255))
    for y in 0..<height {
      for x in (8 * k % width)..<min(width, 8 * k % width + 8) {
        image.pixels[y * width + x] = SIMD4(255, 255, 255, 255)
      }
    }
    return image
  }

  /// The largest channel difference between two images of one size.
  static func largestDifference(_ a: RGBA8Image, _ b: RGBA8Image) -> Int {
    zip(a.pixels, b.pixels).map { p, q in
      (0..<3).map { abs(Int(p[$0]) - Int(q[$0])) }.max()!
    }.max()!
  }

  @Test("six frames written and read back: the size, the order, each within H.264's loss")
  func roundTrip() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/test.mp4"
    let writer = try VideoWriter(path: path, width: 64, height: 48, framesPerSecond: 10)
    for k in 0..<6 { try writer.append(Self.frame(k)) }
    try writer.finish()
    let reader = try VideoFrameReader(path: path)
    #expect(reader.width == 64 && reader.height == 48)
    for k in [0, 1, 2, 5, 3] {  // forwards, then back (the pipe starts again)
      let read = try reader.frame(k)
      let own = Self.largestDifference(read, Self.frame(k))
      let neighbour = Self.largestDifference(read, Self.frame(k == 5 ? 4 : k + 1))
      #expect(own < 40 && own < neighbour, "frame \(k): \(own) from its own, \(neighbour) from the next")
    }
    #expect(throws: VideoError.unreadable(path: path, reason: "no frame 6 (the video has 6)")) {
      try reader.frame(6)
    }
  }

  @Test("a file that is not there is an error naming it")
  func missingFile() {
    #expect(throws: VideoError.unreadable(path: "/nonexistent/v.mp4", reason: "no such file")) {
      try VideoFrameReader(path: "/nonexistent/v.mp4")
    }
  }
}
