import ARImage
import ARImageIO
import ARMarkers
import Foundation

/// Markers in real photographs of mixed size and content (issue 72), ours against OpenCV's
/// `detectMarkers` and the AprilTag library at its defaults but on two threads, as ours runs (its
/// own default is one), each on the same decoded grey
/// images (the JPEG's luma, which OpenCV's `IMREAD_GRAYSCALE` hands both peers and
/// `ImageFile.readLuma` ours; until 2026-12-06 ours was handed RGBA and made its grey itself)
/// and on the files (decode included): the AprilTag library's three Swarmathon photos
/// (799×533, AprilTag 36h11 on cubes under stage light), OpenCV's six-marker desk photo, its
/// ChArUco board and its four calibration shots (640×480, 6×6_250). Each side's time is the sum
/// over the photos of its fastest of `rounds` runs on each (against AprilTag, of two blocks of
/// them, the sides alternating).
func realPhotoMarkerWorkloads(rounds: Int) -> [Row] {
  let folder = "Tests/Fixtures/markers/"
  let swarmathon = ["33369213973_9d9bb4cc96_c", "34085369442_304b6bafd9_c", "34139872896_defdb2f8d9_c"].map {
    folder + "apriltag_swarmathon_photos/\($0).jpg"
  }
  let opencv =
    ["singlemarkersoriginal", "choriginal"].map { folder + "opencv_tutorial_photos/\($0).jpg" }
    + (0..<4).map { folder + "opencv_calibration_photos/img_0\($0).jpg" }
  let sets = [("apriltag_36h11", swarmathon), ("aruco_6x6_250", opencv)]
  guard sets.allSatisfy({ $0.1.allSatisfy { FileManager.default.fileExists(atPath: $0) } }) else { return [] }
  var rows: [Row] = []
  for decoded in [true, false] {
    let how = decoded ? "decoded images" : "files, decode included"
    let workload = "markers in 9 real photographs (Swarmathon 36h11, OpenCV's 6×6_250), \(how)"
    rows += selected(workload) ? manyPhotos(workload, sets, decoded: decoded, rounds: rounds) : []
    let swarmathonWorkload = "markers in the 3 Swarmathon photographs, \(how)"
    guard selected(swarmathonWorkload) else { continue }
    // AprilTag reads its own families only: the Swarmathon photos. Each side is timed in two
    // blocks, ours, theirs, ours, theirs, and keeps its faster: a slow spell of the machine
    // (minutes long on this one) then falls on both sides, not on whichever ran in it.
    var tags = 0
    let detector = MarkerDetector(dictionary: MarkerDictionary.named("apriltag_36h11")!)
    func oursOnSwarmathon() -> Double {
      swarmathon.map { path in
        let (time, found) = fastestDetection(detector, path, decoded: decoded, rounds: rounds)
        tags = found
        return time
      }.reduce(0, +)
    }
    var oursTags = Double.infinity, aprilTime = Double.infinity, aprilFound = 0
    let timesPeer = ProcessInfo.processInfo.environment["ARSCENE_BENCH_OURS_ONLY"] == nil
    for _ in 0..<2 {
      oursTags = min(oursTags, oursOnSwarmathon())
      guard timesPeer else { continue }
      let (time, found) = peerTotal(
        "apriltag", "apriltag_36h11", swarmathon, rounds: rounds, decode: !decoded)
      (aprilTime, aprilFound) = (time.isNaN ? aprilTime : min(aprilTime, time), found)
    }
    if aprilTime.isInfinite { aprilTime = .nan }
    rows.append(
      Row(
        workload: "\(swarmathonWorkload) (found: ours \(tags) in the last, peer \(aprilFound) in all)",
        ours_s: oursTags, peer: "AprilTag 3.3 (ctypes, its defaults on 2 threads)", peer_s: aprilTime,
        ratio: oursTags / aprilTime))
  }
  return rows
}

/// The row of the 9 photographs of both dictionaries against OpenCV: each photo's fastest of
/// `rounds`, summed.
private func manyPhotos(
  _ workload: String, _ sets: [(String, [String])], decoded: Bool, rounds: Int
) -> [Row] {
  var ours = 0.0, found = 0
  for (name, paths) in sets {
    let detector = MarkerDetector(dictionary: MarkerDictionary.named(name)!)
    for path in paths {
      let (time, markers) = fastestDetection(detector, path, decoded: decoded, rounds: rounds)
      (ours, found) = (ours + time, found + markers)
    }
  }
  guard ProcessInfo.processInfo.environment["ARSCENE_BENCH_OURS_ONLY"] == nil else {
    return [Row(workload: workload, ours_s: ours, peer: "-", peer_s: .nan, ratio: .nan)]
  }
  var opencvTime = 0.0, opencvFound = 0
  for (name, paths) in sets {
    let (time, count) = peerTotal("opencv", name, paths, rounds: rounds, decode: !decoded)
    opencvTime += time
    opencvFound += count
  }
  return [
    Row(
      workload: workload + " (found: ours \(found), peer \(opencvFound))", ours_s: ours,
      peer: "OpenCV 4.6 detectMarkers (Python)", peer_s: opencvTime, ratio: ours / opencvTime)
  ]
}

/// The fastest of `rounds` detections by `detector` in the photograph at `path`, on its luma
/// decoded once beforehand or read from the file each time, and the markers found.
private func fastestDetection(_ detector: MarkerDetector, _ path: String, decoded: Bool, rounds: Int) -> (
  seconds: Double, found: Int
) {
  let image = try! ImageFile.readLuma(path)
  var found = 0
  let fastest = (0..<rounds).map { _ in
    seconds {
      found =
        (decoded ? detector.detect(luma: image) : detector.detect(luma: try! ImageFile.readLuma(path))).count
    }
  }.min()!
  return (fastest, found)
}

/// A peer's total time over `paths` (each its fastest of `rounds`) and the markers it found,
/// through Tools/peers/marker_detectors.py; NaN when it cannot run.
private func peerTotal(_ peer: String, _ dictionary: String, _ paths: [String], rounds: Int, decode: Bool)
  -> (
    Double, Int
  )
{
  guard
    let output = peerOutput(
      ["/usr/bin/python3", "Tools/peers/marker_detectors.py", peer, dictionary, "\(rounds)"]
        + (decode ? ["--with-decode"] : []) + paths)
  else { return (.nan, 0) }
  struct Line: Decodable {
    struct Marker: Decodable { var id: Int }
    var seconds: Double
    var markers: [Marker]
  }
  let lines = output.split(separator: "\n").compactMap {
    try? JSONDecoder().decode(Line.self, from: Data($0.utf8))
  }
  guard lines.count == paths.count else { return (.nan, 0) }
  return (lines.map(\.seconds).reduce(0, +), lines.map(\.markers.count).reduce(0, +))
}
