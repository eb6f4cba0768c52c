import ARMarkers
import ARMath
import ARRecording
import ARReplay
import ARTestSupport
import Foundation
import Testing

/// Markers found in a recording's frames, posed with each frame's own intrinsics, reported in
/// the recording's order on any number of threads.
@Suite("Markers in a recording's frames")
struct RecordingMarkerDetectionTests {
  /// Tests/Fixtures/markers/aruco_6x6_250's truth: the camera, the marker's side, each frame's
  /// image and marker id.
  struct Cards: Decodable {
    struct Frame: Decodable {
      var image: String
      var id: Int
    }
    var dictionary: String
    var markerSize: Double
    var intrinsics: [String: Double]
    var frames: [Frame]

    enum CodingKeys: String, CodingKey {
      case dictionary, intrinsics, frames
      case markerSize = "marker_size_m"
    }

    static let folder = Fixtures.path("markers/aruco_6x6_250")
    static func load() throws -> Cards {
      try JSONDecoder().decode(
        Cards.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json")))
    }
    var k: Pinhole<Double> {
      Pinhole(fx: intrinsics["fx"]!, fy: intrinsics["fy"]!, cx: intrinsics["cx"]!, cy: intrinsics["cy"]!)
    }
    var paths: [String] { frames.map { Self.folder + "/" + $0.image } }
  }

  /// A recording of the rendered card frames, the first `withIntrinsics` carrying the camera.
  static func recording(in folder: TemporaryFolder, withIntrinsics: Int) throws -> (String, [Int]) {
    let set = try Cards.load()
    let path = folder.path + "/cards.jsonl"
    let writer = try RecordingWriter(path: path, header: RecordingHeader(source: "test", timeBase: .session))
    for (i, image) in set.paths.prefix(6).enumerated() {
      try writer.write(
        .frame(
          CameraFrameSample(
            time: Double(i) / 30, index: i, intrinsics: i < withIntrinsics ? set.k : nil,
            imageSize: SIMD2(640, 480), image: .file(image))))
    }
    try writer.finish()
    return (path, set.frames.prefix(6).map(\.id))
  }

  /// A detection that poses each marker with the cards' side, on `threads` threads.
  static func posing(threads: Int) throws -> RecordingMarkerDetection {
    let set = try Cards.load()
    var reporting = MarkerReporting()
    reporting.markerSide = set.markerSize
    return RecordingMarkerDetection(
      detector: MarkerDetector(dictionary: try #require(MarkerDictionary.named(set.dictionary))),
      reporting: reporting, threads: threads)
  }

  @Test(
    "each frame's markers posed with its own intrinsics, in order, on 1 and 3 threads", arguments: [1, 3])
  func posedInOrder(threads: Int) throws {
    let folder = try TemporaryFolder()
    let (path, ids) = try Self.recording(in: folder, withIntrinsics: 6)
    let detection = try Self.posing(threads: threads)
    var lines: [MarkerFrameReport] = []
    let count = try detection.run(try RecordingReader(path: path)) { lines.append($0) }
    #expect(count == 6 && lines.map(\.frame) == Array(0..<6))
    for (line, id) in zip(lines, ids) {
      let marker = line.markers.first { $0.id == id }
      #expect(marker?.pose != nil, "frame \(line.frame): marker \(id) found and posed")
    }
  }

  @Test(
    "poses asked for and a frame without intrinsics: the frames before it reported, then an error naming it")
  func frameWithoutIntrinsics() throws {
    let folder = try TemporaryFolder()
    let (path, _) = try Self.recording(in: folder, withIntrinsics: 2)
    let detection = try Self.posing(threads: 2)
    var frames: [Int] = []
    #expect {
      _ = try detection.run(try RecordingReader(path: path)) { frames.append($0.frame) }
    } throws: {
      "\($0)".contains("cards.jsonl: frame 2 at ")
        && "\($0)".contains("no intrinsics to pose its markers with")
    }
    #expect(frames == [0, 1])
  }
}
