import ARFiles
import ARMath
import ARTestSupport
import Testing

@testable import ARRecording

/// Each layout's fixture (Tools/generate-recording-fixtures writes them from the same three ARKit
/// poses, each in its app's own conventions) read back to those poses.
@Suite("Recording readers")
struct RecordingReaderTests {
  /// The poses every fixture holds (worldFromCamera, ARKit camera): looking north and level;
  /// looking east and 30° down; and an odd one.
  static let poses: [RigidTransform<Double>] = [
    RigidTransform(rotation: .identity, translation: [1, 1.5, -2]),
    RigidTransform(
      rotation: Quaternion(angle: .degrees(-90), axis: [0, 1, 0])
        * Quaternion(angle: .degrees(-30), axis: [1, 0, 0]),
      translation: [2.5, 1.25, -3]),
    RigidTransform(
      rotation: Quaternion(angle: .radians(2.5), axis: [0.3, 0.9, -0.2]), translation: [-3.25, 1.1, 4.75]),
  ]

  static func records(_ relative: String, lenient: Bool = false) throws -> (
    RecordingReader, [RecordingRecord]
  ) {
    Record3DTests.linkInflater()
    let reader = try RecordingReader(path: Fixtures.path("recordings/" + relative), lenient: lenient)
    var records: [RecordingRecord] = []
    try reader.forEach { records.append($0) }
    return (reader, records)
  }

  static func poses(_ records: [RecordingRecord]) -> [CameraPoseSample] {
    records.compactMap { if case .pose(let p) = $0 { p } else { nil } }
  }

  static func frames(_ records: [RecordingRecord]) -> [CameraFrameSample] {
    records.compactMap { if case .frame(let f) = $0 { f } else { nil } }
  }

  @Test(
    "every layout gives back the same ARKit poses, the first looking north",
    arguments: [
      ("ios_logger", RecordingFormat.iosLogger, 2e-6), ("stray_scanner", .strayScanner, 1e-12),
      ("arkitscenes/41069021", .arkitScenes, 1e-9), ("arcore_data_logger", .arcoreDataLogger, 2e-6),
      ("record3d/scan.r3d", .record3D, 1e-12),
    ])
  func samePoses(folder: String, format: RecordingFormat, tolerance: Double) throws {
    let (reader, records) = try Self.records(folder)
    #expect(reader.format == format)
    let poses = Self.poses(records)
    try #require(poses.count == 3)
    for (read, truth) in zip(poses, Self.poses) {
      #expect((read.worldFromCamera.translation - truth.translation).length < tolerance)
      let r = read.worldFromCamera.rotation.matrix, t = truth.rotation.matrix
      for c in 0..<3 {
        #expect((r[column: c] - t[column: c]).length < tolerance, "\(folder) column \(c): \(r) vs \(t)")
      }
    }
    // Looking north (−z in ARKit's gravityAndHeading world), level: forward is the camera's −Z.
    let north = poses[0].worldFromCamera.rotation
    #expect((north.act([0, 0, -1]) - SIMD3(0, 0, -1)).length < tolerance)
    #expect((north.act([0, 1, 0]) - SIMD3(0, 1, 0)).length < tolerance)
    // Each frame has its intrinsics and the size they refer to (the ARCore logger writes poses alone).
    let frames = Self.frames(records)
    #expect(format == .arcoreDataLogger ? frames.isEmpty : frames.count == 3)
    #expect(frames.allSatisfy { $0.cameraIntrinsics != nil })
  }

  @Test("ios_logger: columns, iOS's invalid markers, the repeated first fix, the video's size")
  func iosLogger() throws {
    let (reader, records) = try Self.records("ios_logger")
    #expect(reader.header.source == "ios_logger" && reader.header.timeBase == .unix)
    let fixes = records.compactMap { if case .gps(let g) = $0 { g } else { nil } }
    #expect(fixes.count == 2)
    #expect(
      fixes[0]
        == GPSFix(
          time: 1732499999.6, latitude: 48.2082, longitude: 16.3738, altitudeMSL: 171.2,
          horizontalAccuracy: 4.7,
          verticalAccuracy: 3.1, courseDegrees: 87.5, speed: 1.3))
    // Negative vertical accuracy, course and speed: unknown, so absent.
    #expect(fixes[1].altitudeMSL == nil && fixes[1].verticalAccuracy == nil && fixes[1].courseDegrees == nil)
    #expect(fixes[1].speed == nil && fixes[1].height == nil)
    let headings = records.compactMap { if case .heading(let h) = $0 { h } else { nil } }
    #expect(
      headings.map(\.trueHeadingDegrees) == [12.5, nil]
        && headings.map(\.magneticHeadingDegrees) == [8.25, 9])
    // The repeated fix, the invalid fix and the invalid heading are skipped, and said so.
    #expect(reader.skipped == 3)
    #expect(reader.warnings.contains { $0.contains("GPS.txt:2") && $0.contains("repeated") })
    #expect(reader.warnings.contains { $0.contains("GPS.txt:3: horizontalAccuracy") })
    #expect(reader.warnings.contains { $0.contains("Head.txt:3: headingAccuracy") })
    let frames = Self.frames(records)
    #expect(frames.map(\.index) == [0, 1, 2])
    #expect(frames[1].image == .video(path: "Frames.m4v", frame: 1))
    #expect(frames[0].imageSize == SIMD2(64, 48))
    #expect(frames[0].intrinsics == Pinhole(fx: 1444.5, fy: 1444.5, cx: 960, cy: 720))
    let field = records.compactMap { if case .magnetometer(let m) = $0 { m.field } else { nil } }
    #expect(field.first == SIMD3(21.5, -3.25, -40.75) && field.count == 3)
    // Time order across the files.
    #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
  }

  @Test("Stray Scanner: depth and confidence by frame number, K for the video's size")
  func strayScanner() throws {
    let (reader, records) = try Self.records("stray_scanner")
    #expect(reader.header.timeBase == .uptime)
    let frames = Self.frames(records)
    #expect(frames.map(\.depthPath) == ["depth/000000.png", "depth/000001.png", "depth/000002.png"])
    #expect(frames[2].confidencePath == "confidence/000002.png")
    #expect(frames[0].image == .video(path: "rgb.mp4", frame: 0) && frames[0].imageSize == SIMD2(64, 48))
    #expect(frames[0].intrinsics == Pinhole(fx: 1444.5, fy: 1444.5, cx: 960, cy: 720))
    #expect(frames.map(\.time) == Self.poses(records).map(\.time))
  }

  @Test(
    "today's Stray Scanner odometry.csv: 15 columns, the distortion centre often empty; each frame's own intrinsics"
  )
  func strayScannerPerFrameIntrinsics() throws {
    let folder = try TemporaryFolder()
    _ = try folder.write("1444.5,0,960\n0,1444.5,720\n0,0,1\n", to: "camera_matrix.csv")
    let header =
      "timestamp, frame, x, y, z, qx, qy, qz, qw, fx, fy, cx, cy, distortion_center_x, distortion_center_y\n"
    _ = try folder.write(
      header + "3054.1, 0, 1, 2, 3, 1, 0, 0, 0, 1500.25, 1501.5, 955.5, 722.75, , \n"
        + "3054.2, 1, 1, 2, 3, 1, 0, 0, 0, 1490, 1491, 950, 721, 960.1, 719.9\n", to: "odometry.csv")
    let reader = try RecordingReader(path: folder.path)
    #expect(reader.format == .strayScanner)
    let frames = try reader.framesAndPoses().frames
    #expect(
      frames.map(\.intrinsics) == [
        Pinhole(fx: 1500.25, fy: 1501.5, cx: 955.5, cy: 722.75),
        Pinhole(fx: 1490, fy: 1491, cx: 950, cy: 721),
      ])
    // 14 numbers fit none of the app's versions: refused, naming the line and the columns.
    _ = try folder.write(
      header + "3054.1, 0, 1, 2, 3, 1, 0, 0, 0, 1500, 1500, 955, 722, 3\n", to: "odometry.csv")
    let broken = try RecordingReader(path: folder.path)
    #expect { try broken.forEach { _ in } } throws: { error in
      "\(error)".contains("odometry.csv:2: line: expected 9, 13 or 15 columns")
    }
  }

  @Test("ARKitScenes: frames from their file names, intrinsics and size from each .pincam")
  func arkitScenes() throws {
    let (_, records) = try Self.records("arkitscenes/41069021")
    let frames = Self.frames(records)
    #expect(frames.map(\.time) == [3054.149, 3054.249, 3054.349])
    #expect(frames[1].image == .file("lowres_wide/41069021_3054.249.png"))
    #expect(frames[1].depthPath == "lowres_depth/41069021_3054.249.png")
    #expect(frames[0].imageSize == SIMD2(256, 192))
    #expect(frames[0].intrinsics == Pinhole(fx: 211.5, fy: 211.25, cx: 127.75, cy: 95.5))
  }

  @Test(
    "a recording of many runs, read in parallel: every record in order; a bad line far in names its line; lenient skips it"
  )
  func manyRuns() throws {
    let folder = try TemporaryFolder()
    var text =
      #"{"type":"header","format":"arscene-recording","version":1,"time_base":"unix","source":"test"}"#
      + "\r\n"
    let count = 30_000
    for i in 0..<count {
      let t = 1000 + Double(i) / 30
      text += #"{"type":"pose","t":\#(t),"translation":[\#(i),1.6,0],"rotation_xyzw":[0,0,0,1]}"# + "\r\n"
    }
    let good = try folder.write(text, to: "good.jsonl")
    let reader = try RecordingReader(path: good)
    var times: [Double] = [], xs: [Double] = []
    try reader.forEach { record in
      guard case .pose(let p) = record else { return }
      times.append(p.time)
      xs.append(p.worldFromCamera.translation.x)
    }
    #expect(times.count == count && xs == (0..<count).map(Double.init) && times == times.sorted())
    // Line 25,002 (pose 25,000) broken, and line 27,002 back in time.
    var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
    lines[25_001] = #"{"type":"pose","t":1833.3,"translation":[1,2],"rotation_xyzw":[0,0,0,1]}"#
    lines[27_001] = lines[100]
    let bad = try folder.write(lines.joined(separator: "\n"), to: "bad.jsonl")
    #expect {
      try RecordingReader(path: bad).forEach { _ in }
    } throws: { error in
      "\(error)".contains("bad.jsonl:25002: translation") && "\(error)".contains("3")
    }
    let lenient = try RecordingReader(path: bad, lenient: true)
    var read = 0
    try lenient.forEach { _ in read += 1 }
    #expect(read == count - 2 && lenient.skipped == 2)
    #expect(lenient.warnings.count == 2 && lenient.warnings[1].contains("bad.jsonl:27002: t"))
  }

  @Test("a line longer than the read buffer, CR LF endings and no final newline")
  func lineReader() throws {
    let dir = try TemporaryFolder()
    let long = String(repeating: "x", count: 1000)
    let path = try dir.write("a\r\n\(long)\nb\r\n\r\nlast", to: "lines.txt")
    let reader = try LineReader(path: path, bufferSize: 64)
    var lines: [String] = []
    while let line = try reader.next() { lines.append(String(decoding: line, as: UTF8.self)) }
    #expect(lines == ["a", long, "b", "", "last"])
    #expect(reader.lineNumber == 5)
  }

  @Test("ARKit Data Logger: both headers the app has written; a matrix that is no rotation names its line")
  func arkitDataLogger() throws {
    let folder = try TemporaryFolder()
    let identity = "1 0 0 0.5 0 1 0 1.5 0 0 1 -2 \n"
    // The app's current source writes its header with no line end: the first pose follows it.
    let glued = try folder.write(
      "Created at 20190722_225919t1000000000 " + identity + "2000000000 " + identity,
      to: "ARKit_camera_pose.txt")
    let reader = try RecordingReader(path: folder.path)
    #expect(reader.format == .arkitDataLogger && reader.header.source == "arkit_data_logger")
    var poses: [CameraPoseSample] = []
    try reader.forEach { if case .pose(let p) = $0 { poses.append(p) } }
    #expect(poses.map(\.time) == [1, 2])
    #expect(poses[0].worldFromCamera == RigidTransform(rotation: .identity, translation: [0.5, 1.5, -2]))
    // The older header on a line of its own.
    try folder.write(
      "# Created at 2019-07-22 22:59:19 in PST \n3000000000 " + identity, to: "ARKit_camera_pose.txt")
    let older = try RecordingReader(path: glued)
    var times: [Double] = []
    try older.forEach { times.append($0.time) }
    #expect(times == [3])
    try folder.write("# header\n1000000000 1 0 0 0 0 1 0 0 0 0 0 0 \n", to: "ARKit_camera_pose_bad.txt")
    expectError(RecordingError.self, "badRecord") {
      try RecordingReader(path: folder.path + "/ARKit_camera_pose_bad.txt").forEach { _ in }
    }
  }
}

extension RecordingReader {
  /// The frames and the poses of the records left, each in time order: what most reader tests
  /// look at.
  func framesAndPoses() throws(RecordingError) -> (frames: [CameraFrameSample], poses: [CameraPoseSample]) {
    var records: [RecordingRecord] = []
    try forEach { records.append($0) }
    return (RecordingReaderTests.frames(records), RecordingReaderTests.poses(records))
  }
}
