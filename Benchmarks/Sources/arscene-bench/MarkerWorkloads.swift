import ARImage
import ARImageIO
import ARMarkers
import ARMath
import Foundation

/// Marker detection in a 1920×1440 camera frame (an iPhone's ARKit capture size) with one
/// large marker and with twenty of 60–220 px, against OpenCV's `detectMarkers` (sub-pixel
/// refinement) and the AprilTag library's detector (its defaults: decimation 2, two threads),
/// both through Tools/peers/marker_detectors.py, which times the detection alone on the frame
/// already decoded to grey. Ours is timed from the decoded RGBA frame, its grey conversion
/// included. The frame: a lit, noisy surface with dark and light clutter, AprilTag 36h11
/// markers (the family all three detect) at seeded sizes and turns.
func markerWorkloads(quick: Bool) -> [Row] {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "arscene-bench-markers-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let dictionary = MarkerDictionary.named("apriltag_36h11")!
  var rows: [Row] = []
  for count in [1, 20] where selected("marker detection, 1920×1440, \(count) AprilTag 36h11") {
    let frame = markerFrame(dictionary, markers: count, seed: UInt64(count))
    let path = folder.appendingPathComponent("frame\(count).png").path
    try! ImageFile.writePNG(frame, to: path, compression: 1)
    let detector = MarkerDetector(dictionary: dictionary)
    let environment = ProcessInfo.processInfo.environment
    let rounds = environment["ARSCENE_BENCH_ROUNDS"].flatMap { Int($0) } ?? (quick ? 1 : 10)
    var found = 0
    let ours = (0..<rounds).map { _ in seconds { found = detector.detect(frame).count } }.min()!
    for peer in ["opencv", "apriltag"] {
      guard environment["ARSCENE_BENCH_OURS_ONLY"] == nil else {
        rows.append(
          Row(
            workload: "marker detection, \(count) markers", ours_s: ours, peer: "-", peer_s: .nan, ratio: .nan
          ))
        break
      }
      guard
        let output = peerOutput([
          "/usr/bin/python3", "Tools/peers/marker_detectors.py", peer, dictionary.name, "\(rounds)", path,
        ]),
        let line = try? JSONDecoder().decode(PeerLine.self, from: Data(output.utf8))
      else { continue }
      rows.append(
        Row(
          workload:
            "marker detection, 1920×1440, \(count) AprilTag 36h11 (found: ours \(found), peer \(line.markers.count))",
          ours_s: ours, peer: peer == "opencv" ? "OpenCV detectMarkers (Python)" : "AprilTag 3.3 (ctypes)",
          peer_s: line.seconds, ratio: ours / line.seconds))
    }
  }
  let photoRounds =
    ProcessInfo.processInfo.environment["ARSCENE_BENCH_ROUNDS"].flatMap { Int($0) } ?? (quick ? 1 : 20)
  rows += boardPhotoWorkload(rounds: photoRounds)
  rows += realPhotoMarkerWorkloads(rounds: photoRounds)
  return rows
}

/// A real 640×480 webcam photo of a 5×7 ChArUco board (OpenCV's tutorial photo, a test fixture):
/// its markers found and its chessboard corners placed and refined, against OpenCV's
/// `detectMarkers` (sub-pixel refinement) then `interpolateCornersCharuco`, timed the same way.
private func boardPhotoWorkload(rounds: Int) -> [Row] {
  let path = "Tests/Fixtures/markers/opencv_tutorial_photos/choriginal.jpg"
  let workload = "ChArUco board, real 640×480 photo: markers and chessboard corners"
  guard selected(workload), let photo = try? ImageFile.readRGBA8(path),
    let board = try? MarkerBoard(specification: "charuco:5x7:0.04:0.02:aruco_6x6_250")
  else { return [] }
  let detector = MarkerDetector(dictionary: board.dictionary)
  var found = (markers: 0, corners: 0)
  let ours = (0..<rounds).map { _ in
    seconds {
      let markers = detector.detect(photo)
      found = (markers.count, board.charucoCorners(in: photo, markers: markers).count)
    }
  }.min()!
  guard ProcessInfo.processInfo.environment["ARSCENE_BENCH_OURS_ONLY"] == nil else {
    return [Row(workload: workload, ours_s: ours, peer: "-", peer_s: .nan, ratio: .nan)]
  }
  guard
    let output = peerOutput([
      "/usr/bin/python3", "Tools/peers/marker_detectors.py", "charuco:5x7:0.04:0.02", "aruco_6x6_250",
      "\(rounds)", path,
    ]),
    let line = try? JSONDecoder().decode(PeerLine.self, from: Data(output.utf8))
  else { return [] }
  return [
    Row(
      workload:
        "\(workload) (found: ours \(found.markers) and \(found.corners), peer \(line.markers.count) and \(line.charuco_corners ?? 0))",
      ours_s: ours, peer: "OpenCV detectMarkers + interpolateCornersCharuco (Python)", peer_s: line.seconds,
      ratio: ours / line.seconds)
  ]
}

/// What marker_detectors.py prints for one image.
private struct PeerLine: Decodable {
  struct Marker: Decodable { var id: Int }
  var seconds: Double
  var markers: [Marker]
  var charuco_corners: Int?
}

/// A 1920×1440 frame: a surface lit from one side with sensor noise, forty dark and light
/// patches of clutter, and `markers` markers (with their quiet zone) at seeded places, sizes
/// and turns, drawn with 2×2 samples a pixel in linear light.
func markerFrame(_ dictionary: MarkerDictionary, markers: Int, seed: UInt64) -> RGBA8Image {
  let (width, height) = (1920, 1440)
  var random = SplitMix64(seed: seed)
  var levels = [Float](repeating: 0, count: width * height)
  for y in 0..<height {
    for x in 0..<width { levels[y * width + x] = 0.18 + 0.22 * Float(x) / Float(width) }
  }
  func fill(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ level: Float) {
    for y in max(0, y0)..<min(height, y0 + h) {
      for x in max(0, x0)..<min(width, x0 + w) { levels[y * width + x] = level }
    }
  }
  for _ in 0..<40 {
    fill(
      Int.random(in: 0..<width, using: &random), Int.random(in: 0..<height, using: &random),
      Int.random(in: 10...160, using: &random), Int.random(in: 10...160, using: &random),
      Float.random(in: 0.01...0.6, using: &random))
  }
  // Markers on a grid of cells, one per cell, so that none overlap.
  let columns = markers == 1 ? 1 : 5, rows = markers == 1 ? 1 : 4
  for k in 0..<markers {
    let id = Int.random(in: 0..<dictionary.codes.count, using: &random)
    let printed = try! dictionary.image(id: id, pixels: (dictionary.size + 4) * 8, quietZone: 1)
    let cellWidth = Double(width / columns), cellHeight = Double(height / rows)
    let side = markers == 1 ? 600 : Double.random(in: 60...220, using: &random)
    let centre = SIMD2(
      (Double(k % columns) + 0.5) * cellWidth + Double.random(in: -30...30, using: &random),
      (Double(k / columns) + 0.5) * cellHeight + Double.random(in: -30...30, using: &random))
    let angle = Double.random(in: 0..<(2 * .pi), using: &random)
    let (c, s) = (cos(angle), sin(angle))
    let scale = Double(printed.width) / side
    let reach = Int(side * 0.75)
    for y in max(0, Int(centre.y) - reach)..<min(height, Int(centre.y) + reach) {
      for x in max(0, Int(centre.x) - reach)..<min(width, Int(centre.x) + reach) {
        var sum: Float = 0, inside = 0
        for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
          let d = SIMD2(Double(x) + dx, Double(y) + dy) - centre
          let u = (c * d.x + s * d.y) * scale + Double(printed.width) / 2
          let v = (-s * d.x + c * d.y) * scale + Double(printed.height) / 2
          guard u >= 0, v >= 0, u < Double(printed.width), v < Double(printed.height) else { continue }
          sum += printed[Int(u), Int(v)].x == 0 ? 0.02 : 0.75
          inside += 1
        }
        if inside > 0 {
          let i = y * width + x
          levels[i] = (sum + levels[i] * Float(4 - inside)) / 4
        }
      }
    }
  }
  return RGBA8Image(
    width: width, height: height,
    pixels: levels.map { level in
      let v = UInt8(clamping: Int((SRGB.encode(level) * 255 + Float(2 * random.gaussian())).rounded()))
      return SIMD4(v, v, v, 255)
    })
}
