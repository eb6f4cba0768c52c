import ARImage
import Dispatch
import Testing

@testable import ARMarkers

/// The frame-sized arrays detection keeps between frames: handed out only at their own count,
/// and never carrying one frame's values into another's result.
@Suite("Kept detection buffers")
struct ScratchArraysTests {
  @Test(
    "an array is handed out again only at its own count; small ones and those past the limits are not kept")
  func keeping() {
    let kept = ScratchArrays<Float>(limit: 2, byteLimit: 1 << 20)
    var made = 0
    func take(_ count: Int) -> [Float] {
      kept.take(count: count) { n in
        made += 1
        return [Float](repeating: Float(n), count: n)
      }
    }
    let big = 1 << 16
    kept.give([Float](repeating: 7, count: big))
    #expect(take(big + 1).count == big + 1 && made == 1)  // another count: made anew
    #expect(take(big) == [Float](repeating: 7, count: big) && made == 1)  // the kept one
    #expect(take(big).first == Float(big) && made == 2)  // taken already: made anew
    kept.give([Float](repeating: 1, count: 100))  // too small to keep
    #expect(take(100).first == 100 && made == 3)
    for value in [1, 2, 3] { kept.give([Float](repeating: Float(value), count: big)) }
    // The limit is two: the first given made room for the third.
    #expect(take(big).first == 2 && take(big).first == 3 && made == 3)
    // 1 MiB in all: an array that does not fit with the kept ones drops the oldest; one larger
    // than the whole is not kept.
    kept.give([Float](repeating: 4, count: 3 * big))  // 768 KiB
    kept.give([Float](repeating: 5, count: 2 * big))  // 512 KiB: the 768 KiB one goes
    kept.give([Float](repeating: 6, count: 8 * big))  // 2 MiB: not kept
    #expect(take(2 * big).first == 5 && made == 3)
    #expect(take(3 * big).first == Float(3 * big) && take(8 * big).first == Float(8 * big) && made == 5)
  }

  @Test("frames of one size detected in turn and at once each give what they give alone")
  func noCarryOver() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_4x4_50"))
    let detector = MarkerDetector(dictionary: dictionary)
    // 640×480: the frame, its halved copy and the masks are all large enough to be kept.
    func frame(_ markers: [(id: Int, x: Int, y: Int, side: Int)]) throws -> RGBA8Image {
      var image = RGBA8Image(width: 640, height: 480, fill: SIMD4(150, 150, 150, 255))
      for m in markers {
        let marker = try dictionary.image(id: m.id, pixels: m.side + m.side / 3, quietZone: 1)
        for y in 0..<marker.height { for x in 0..<marker.width { image[m.x + x, m.y + y] = marker[x, y] } }
      }
      return image
    }
    let frames = [
      try frame([(3, 20, 40, 40), (11, 100, 40, 90), (29, 260, 60, 220)]),
      try frame([(7, 400, 300, 60), (19, 30, 250, 160)]),
      RGBA8Image(width: 640, height: 480, fill: SIMD4(90, 90, 90, 255)),
    ]
    let alone = frames.map { detector.detect($0).map(\.id) }
    #expect(alone == [[3, 11, 29], [7, 19], []])
    for k in [2, 0, 1, 0, 2, 1] { #expect(detector.detect(frames[k]).map(\.id) == alone[k]) }
    let results = UnsafeMutableBufferPointer<[Int]>.allocate(capacity: 12)
    results.initialize(repeating: [])
    defer { results.deallocate() }
    nonisolated(unsafe) let slots = results
    DispatchQueue.concurrentPerform(iterations: 12) { slots[$0] = detector.detect(frames[$0 % 3]).map(\.id) }
    #expect((0..<12).allSatisfy { results[$0] == alone[$0 % 3] })
  }
}
