import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Side by side with OpenCV's `detectMarkers` (4.6, sub-pixel corner refinement) on the same
/// frames: seeded markers from 40 to 200 px in perspective, under a lighting gradient, blurred
/// in part, with sensor noise, then JPEG-compressed (quality 75) by OpenCV.
@Suite("Marker detection against OpenCV")
struct OpenCVComparisonTests {
  @Test("at least OpenCV's detection rate, no false ids, corners no worse")
  func sideBySide() throws {
    let folder = try TemporaryFolder()
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    var random = SplitMix64(seed: 34)
    var truth: [(id: Int, corners: [SIMD2<Double>])] = []
    let frames = 20
    for k in 0..<frames {
      let size = Double.random(in: 40...160, using: &random)
      let centre = SIMD2(
        Double.random(in: 140...500, using: &random), Double.random(in: 130...350, using: &random))
      let angle = Double.random(in: 0..<(2 * .pi), using: &random)
      var corners = (0..<4).map { c -> SIMD2<Double> in
        let a = angle + Double(c) * .pi / 2 - 3 * .pi / 4
        return centre + SIMD2(cos(a), sin(a)) * size / 2 * 1.4142
      }
      for c in 0..<4 {
        corners[c] +=
          SIMD2(
            Double.random(in: -0.12...0.12, using: &random), Double.random(in: -0.12...0.12, using: &random))
          * size
      }
      let id = Int.random(in: 0..<250, using: &random)
      var image = try MarkerDetectionTests.frame(
        dictionary, id: id, corners: corners, width: 512, height: 384, noise: 3, seed: UInt64(k),
        supersampling: 3)
      // A lighting gradient across the frame, and a blur over its right half in odd frames.
      image = RGBA8Image(
        width: 512, height: 384,
        pixels: image.pixels.enumerated().map { i, p in
          let gain = 0.6 + 0.5 * Double(i % 512) / 512
          let v = UInt8(min(255, Double(p.x) * gain))
          return SIMD4(v, v, v, 255)
        })
      if k % 2 == 1 {
        var blurred = image
        for y in 1..<383 {
          for x in 257..<511 {
            // Averaged in light, as a lens blurs.
            var sum = 0.0
            for dy in -1...1 {
              for dx in -1...1 { sum += MarkerDetectionTests.light(Double(image[x + dx, y + dy].x)) }
            }
            let v = UInt8(MarkerDetectionTests.encoded(sum / 9).rounded())
            blurred[x, y] = SIMD4(v, v, v, 255)
          }
        }
        image = blurred
      }
      try ImageFile.writePNG(image, to: folder.path + "/frame\(k).png")
      truth.append((id, corners))
    }
    let theirs = try Self.opencvDetections(
      in: folder.path, frames: frames, dictionary: "DICT_6X6_250", quality: 75)
    func error(_ found: [SIMD2<Double>], _ true_: [SIMD2<Double>]) -> Double {
      zip(found, true_).map { ($0 - $1).length }.reduce(0, +) / 4
    }
    var (ourHits, theirHits, ourFalse) = (0, 0, 0)
    var (ourErrors, theirErrors): ([Double], [Double]) = ([], [])
    let detector = MarkerDetector(dictionary: dictionary)
    for k in 0..<frames {
      let jpeg = try ImageFile.readRGBA8(folder.path + "/frame\(k).jpg")
      let ours = detector.detect(jpeg)
      ourFalse += ours.filter { $0.id != truth[k].id }.count
      if let hit = ours.first(where: { $0.id == truth[k].id }) {
        ourHits += 1
        ourErrors.append(error(hit.corners, truth[k].corners))
      }
      if let hit = theirs[k].first(where: { $0.0 == truth[k].id }) {
        theirHits += 1
        theirErrors.append(error(hit.1, truth[k].corners))
      }
    }
    let ourMean = ourErrors.reduce(0, +) / Double(max(1, ourErrors.count))
    let theirMean = theirErrors.reduce(0, +) / Double(max(1, theirErrors.count))
    #expect(ourHits >= theirHits, "found \(ourHits) of \(frames), OpenCV \(theirHits)")
    #expect(ourFalse == 0)
    #expect(ourMean <= theirMean * 1.05 + 0.01, "mean corner error \(ourMean) px, OpenCV's \(theirMean) px")
  }

  /// OpenCV's markers in `folder`'s `frame{k}.png` for k below `frames`: each frame written as
  /// `frame{k}.jpg` at JPEG `quality` first (kept for ours), then detectMarkers with sub-pixel
  /// refinement; ids and corners (ARScene's convention) per frame.
  static func opencvDetections(in folder: String, frames: Int, dictionary: String, quality: Int) throws -> [[(
    Int, [SIMD2<Double>]
  )]] {
    let script = """
      import cv2, sys
      d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, sys.argv[3]))
      p = cv2.aruco.DetectorParameters_create()
      p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
      for k in range(int(sys.argv[2])):
          image = cv2.imread(f"{sys.argv[1]}/frame{k}.png", cv2.IMREAD_GRAYSCALE)
          cv2.imwrite(f"{sys.argv[1]}/frame{k}.jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(sys.argv[4])])
          jpeg = cv2.imread(f"{sys.argv[1]}/frame{k}.jpg", cv2.IMREAD_GRAYSCALE)
          corners, ids, _ = cv2.aruco.detectMarkers(jpeg, d, parameters=p)
          found = [] if ids is None else [(int(i), c.reshape(-1)) for i, c in zip(ids.flatten(), corners)]
          print(k, ";".join(f"{i}:" + ",".join(f"{v + 0.5:.4f}" for v in c) for i, c in found))
      """
    let outcome = try PythonPeer.run(
      script, arguments: [folder, String(frames), dictionary, String(quality)], packages: "none")
    try #require(outcome.status == 0, "\(outcome.output)")
    var theirs: [[(Int, [SIMD2<Double>])]] = Array(repeating: [], count: frames)
    for line in outcome.output.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      guard let k = Int(parts[0]), parts.count == 2 else { continue }
      theirs[k] = parts[1].split(separator: ";").map { entry in
        let pieces = entry.split(separator: ":")
        let v = pieces[1].split(separator: ",").map { Double($0)! }
        return (Int(pieces[0])!, (0..<4).map { SIMD2(v[2 * $0], v[2 * $0 + 1]) })
      }
    }
    return theirs
  }
}
