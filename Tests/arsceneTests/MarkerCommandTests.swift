import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `arscene marker generate`: a printable marker, and its errors.
@Suite("arscene marker")
struct MarkerCommandTests {
  @Test(
    "a 4x4 marker with its quiet zone: 8 cells across, whole cells at 80 px, the border black, the zone white"
  )
  func generate() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/marker.png"
    let outcome = try ArsceneRunner.run([
      "marker", "generate", "--dictionary", "aruco_4x4_50", "--id", "7", "--pixels", "80", "-o", path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let image = try ImageFile.readRGBA8(path)
    #expect(image.width == 80 && image.height == 80)
    #expect(image[5, 5].x == 255 && image[15, 15].x == 0 && image[64, 64].x == 0 && image[75, 40].x == 255)
    #expect(image.pixels.allSatisfy { $0.x == 0 || $0.x == 255 })
  }

  @Test(
    "an unknown dictionary (a usage error, 64) or an id outside it (2) is an error naming it, nothing written",
    arguments: [
      (["--dictionary", "aruco_9x9_1", "--id", "0"], "'aruco_9x9_1' is invalid for '--dictionary", 64),
      (["--dictionary", "apriltag_36h11", "--id", "587"], "apriltag_36h11 has ids 0 to 586, not 587", 2),
    ] as [([String], String, Int32)])
  func errors(_ options: [String], _ message: String, _ status: Int32) throws {
    let folder = try TemporaryFolder()
    let outcome = try ArsceneRunner.run(
      ["marker", "generate"] + options + ["--pixels", "100", "-o", folder.path + "/m.png"])
    #expect(outcome.status == status && outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/m.png"))
  }

  @Test(
    "detect: a generated marker's id and its border's corners exactly, its pose with intrinsics; no marker is an empty list"
  )
  func detect() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/tag.png"
    _ = try ArsceneRunner.run([
      "marker", "generate", "--dictionary", "apriltag_36h11", "--id", "42", "--pixels", "200", "-o", path,
    ])
    let outcome = try ArsceneRunner.run(["marker", "detect", path, "--dictionary", "apriltag_36h11"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      struct Marker: Decodable {
        var id: Int, corners: [[Double]], hamming: Int
        struct Pose: Decodable { var ambiguous: Bool }
        var pose: Pose?
      }
      var markers: [Marker]
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    // 10 cells of 20 px: the black border from 20 to 180.
    #expect(report.markers.count == 1 && report.markers[0].id == 42 && report.markers[0].hamming == 0)
    let expected: [[Double]] = [[20, 20], [180, 20], [180, 180], [20, 180]]
    for (c, e) in zip(report.markers[0].corners, expected) {
      #expect(abs(c[0] - e[0]) < 0.05 && abs(c[1] - e[1]) < 0.05, "\(c)")
    }
    #expect(report.markers[0].pose == nil)
    let posed = try ArsceneRunner.run([
      "marker", "detect", path, "--dictionary", "apriltag_36h11", "--intrinsics", "400,400,100,100", "--size",
      "0.16",
    ])
    #expect(try JSONDecoder().decode(Report.self, from: Data(posed.stdout.utf8)).markers.first?.pose != nil)
    // The other dictionary finds nothing here.
    let other = try ArsceneRunner.run(["marker", "detect", path, "--dictionary", "aruco_4x4_50"])
    #expect(other.status == 0 && other.stdout == "{\"markers\":[]}\n", "\(other.stdout)")
    let missing = try ArsceneRunner.run(["marker", "detect", folder.path + "/none.png"])
    #expect(missing.status == 2 && missing.stderr.contains("none.png"), "\(missing.stderr)")
  }

  @Test(
    "detect --recording: a JSON line per frame in order on any --threads, posed with each frame's intrinsics; a bad frame names itself, exit 2"
  )
  func detectInRecording() throws {
    let folder = try TemporaryFolder()
    let frames = Fixtures.path("markers/apriltag_36h11")
    struct Truth: Decodable {
      struct Frame: Decodable { var image: String, id: Int }
      var frames: [Frame]
    }
    let truth = try JSONDecoder().decode(
      Truth.self, from: Data(contentsOf: URL(fileURLWithPath: frames + "/truth.json")))
    var lines = [
      #"{"type":"header","format":"arscene-recording","version":1,"source":"test","time_base":"unix"}"#
    ]
    for (k, frame) in truth.frames.prefix(4).enumerated() {
      lines.append(
        #"{"type":"frame","t":\#(100 + Double(k) / 10),"index":\#(k),"intrinsics":[540,540,321.5,238.5],"size":[640,480],"image":"\#(frames)/\#(frame.image)"}"#
      )
    }
    let recording = folder.path + "/session.jsonl"
    try (lines.joined(separator: "\n") + "\n").write(toFile: recording, atomically: true, encoding: .utf8)
    let outcome = try ArsceneRunner.run([
      "marker", "detect", "--recording", recording, "--dictionary", "apriltag_36h11", "--size", "0.05",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Line: Decodable {
      struct Marker: Decodable {
        var id: Int
        var corner_sigma_px: Double?
        struct Pose: Decodable {
          struct Solution: Decodable { var translation: [Double] }
          var solutions: [Solution]
        }
        var pose: Pose?
      }
      var frame: Int, time: Double, markers: [Marker]
    }
    let parsed = try outcome.stdout.split(separator: "\n").map {
      try JSONDecoder().decode(Line.self, from: Data($0.utf8))
    }
    #expect(parsed.map(\.frame) == [0, 1, 2, 3])
    // Frames detected one at a time or three at once: the same lines, in the same order.
    for threads in ["1", "3"] {
      let again = try ArsceneRunner.run([
        "marker", "detect", "--recording", recording, "--dictionary", "apriltag_36h11", "--size", "0.05",
        "--threads", threads,
      ])
      #expect(again.status == 0 && again.stdout == outcome.stdout, "--threads \(threads): \(again.stderr)")
    }
    #expect(abs(parsed[1].time - 100.1) < 1e-9)
    for (line, frame) in zip(parsed, truth.frames) {
      #expect(line.markers.map(\.id) == [frame.id])
      #expect(line.markers.first?.pose?.solutions.first.map { $0.translation[2] > 0.1 } == true)
      #expect(line.markers.first?.corner_sigma_px.map { $0 > 0 && $0 < 0.5 } == true)
    }
    // A frame whose image is missing: the error names the recording and the frame.
    lines.append(
      #"{"type":"frame","t":101,"index":9,"intrinsics":[540,540,321.5,238.5],"size":[640,480],"image":"gone.jpg"}"#
    )
    try (lines.joined(separator: "\n") + "\n").write(toFile: recording, atomically: true, encoding: .utf8)
    let broken = try ArsceneRunner.run(["marker", "detect", "--recording", recording])
    #expect(broken.status == 2 && broken.stderr.contains("session.jsonl: frame 9"), "\(broken.stderr)")
    #expect(broken.stdout.split(separator: "\n").count == 4, "the good frames' lines first")
    let both = try ArsceneRunner.run(["marker", "detect", "x.png", "--recording", recording])
    #expect(both.status == 64, "\(both.stderr)")
  }

  @Test("detect --rig: the board's pose from both its markers; a rig file repeating an id is refused, exit 2")
  func detectRig() throws {
    let folder = try TemporaryFolder()
    // Two 4×4 markers, 80 px with their quiet zone (10 px cells), side by side on a white page.
    var page = RGBA8Image(width: 320, height: 200, fill: SIMD4(235, 235, 235, 255))
    for (id, x0) in [(3, 60), (8, 180)] {
      let path = folder.path + "/m\(id).png"
      let made = try ArsceneRunner.run([
        "marker", "generate", "--dictionary", "aruco_4x4_50", "--id", "\(id)", "--pixels", "80", "-o", path,
      ])
      try #require(made.status == 0, "\(made.stderr)")
      let marker = try ImageFile.readRGBA8(path)
      for y in 0..<80 {
        for x in 0..<80 {
          page[x0 + x, 60 + y] = marker[x, y].x == 0 ? SIMD4(20, 20, 20, 255) : page[x0 + x, 60 + y]
        }
      }
    }
    try ImageFile.writePNG(page, to: folder.path + "/board.png")
    // At 600 px focal length and 60 px a 4 cm marker, the board is 40 cm away.
    try
      #"{"markers":[{"id":3,"size":0.04,"translation":[-0.04,0,0]},{"id":8,"size":0.04,"translation":[0.04,0,0]}]}"#
      .write(toFile: folder.path + "/rig.json", atomically: true, encoding: .utf8)
    let outcome = try ArsceneRunner.run([
      "marker", "detect", folder.path + "/board.png", "--intrinsics", "600,600,160,100", "--rig",
      folder.path + "/rig.json",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      struct Rig: Decodable {
        struct Solution: Decodable { var translation: [Double] }
        var seen: [Int], repeated: [Int], inconsistent: [Int], pose: [Solution]?
      }
      var rig: Rig?
    }
    let rig = try #require(try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8)).rig)
    #expect(rig.seen == [3, 8] && rig.repeated.isEmpty && rig.inconsistent.isEmpty)
    let z = try #require(rig.pose?.first?.translation[2])
    #expect(abs(z - 0.4) < 0.01, "\(z)")
    try #"{"markers":[{"id":3,"size":0.04},{"id":3,"size":0.04,"translation":[0.04,0,0]}]}"#
      .write(toFile: folder.path + "/twice.json", atomically: true, encoding: .utf8)
    let twice = try ArsceneRunner.run([
      "marker", "detect", folder.path + "/board.png", "--intrinsics", "600,600,160,100", "--rig",
      folder.path + "/twice.json",
    ])
    #expect(twice.status == 2 && twice.stderr.contains("twice.json: markers[1].id"), "\(twice.stderr)")
    #expect(twice.stdout.isEmpty)
  }
}
