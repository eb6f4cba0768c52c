import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Phones' image processors apply their own tone curves and sharpening after the optics: frames
/// whose light is encoded by gamma 1.8, gamma 2.6 or a log curve, then unsharp-masked, then
/// JPEG-compressed, side by side with OpenCV's `detectMarkers` (sub-pixel refinement).
@Suite("Markers under cameras' tone curves")
struct ToneCurveTests {
  static let opencv: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0

  /// Encoded level (0…1) of light (0…1) by curve `name`.
  static func curve(_ name: String, _ light: Double) -> Double {
    switch name {
    case "gamma 1.8": Foundation.pow(light, 1 / 1.8)
    case "gamma 2.6": Foundation.pow(light, 1 / 2.6)
    default: Foundation.log(1 + 60 * light) / Foundation.log(61.0)  // a log profile
    }
  }

  @Test(
    "every marker found, no false ids, corners no worse than OpenCV's",
    .enabled(if: opencv, "needs Debian's python3-opencv"), arguments: ["gamma 1.8", "gamma 2.6", "log"])
  func sideBySide(curveName: String) throws {
    let folder = try TemporaryFolder()
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    var random = SplitMix64(seed: 91)
    var truth: [(id: Int, corners: [SIMD2<Double>])] = []
    let frames = 10
    for k in 0..<frames {
      let size = Double.random(in: 40...120, using: &random)
      let centre = SIMD2(
        Double.random(in: 110...210, using: &random), Double.random(in: 100...140, using: &random))
      let angle = Double.random(in: 0..<(2 * .pi), using: &random)
      let corners = (0..<4).map { c -> SIMD2<Double> in
        let a = angle + Double(c) * .pi / 2 - 3 * .pi / 4
        return centre + SIMD2(cos(a), sin(a)) * size / 2 * 1.4142
          + SIMD2(
            Double.random(in: -0.1...0.1, using: &random), Double.random(in: -0.1...0.1, using: &random))
          * size
      }
      let id = Int.random(in: 0..<250, using: &random)
      let frame = try MarkerDetectionTests.frame(
        dictionary, id: id, corners: corners, width: 320, height: 240, noise: 0, seed: UInt64(k),
        supersampling: 3)
      // The light re-encoded by the curve, then sharpened (unsharp mask of a 3×3 box, amount
      // 0.6) and given sensor noise, as an image processor does after the optics.
      let encoded = frame.pixels.map { Self.curve(curveName, MarkerDetectionTests.light(Double($0.x))) * 255 }
      var pixels = frame.pixels
      for y in 0..<240 {
        for x in 0..<320 {
          var box = 0.0
          for dy in -1...1 {
            for dx in -1...1 { box += encoded[min(239, max(0, y + dy)) * 320 + min(319, max(0, x + dx))] }
          }
          let v = encoded[y * 320 + x] + 0.6 * (encoded[y * 320 + x] - box / 9) + 2 * random.gaussian()
          let byte = UInt8(Swift.min(255, Swift.max(0, v.rounded())))
          pixels[y * 320 + x] = SIMD4(byte, byte, byte, 255)
        }
      }
      try ImageFile.writePNG(
        RGBA8Image(width: 320, height: 240, pixels: pixels), to: folder.path + "/frame\(k).png")
      truth.append((id, corners))
    }
    let theirs = try OpenCVComparisonTests.opencvDetections(
      in: folder.path, frames: frames, dictionary: "DICT_6X6_250", quality: 90)
    func error(_ found: [SIMD2<Double>], _ true_: [SIMD2<Double>]) -> Double {
      zip(found, true_).map { ($0 - $1).length }.reduce(0, +) / 4
    }
    var (ours, theirErrors, ourErrors, falseIds) = (0, [Double](), [Double](), 0)
    let detector = MarkerDetector(dictionary: dictionary)
    for k in 0..<frames {
      let found = detector.detect(try ImageFile.readRGBA8(folder.path + "/frame\(k).jpg"))
      falseIds += found.filter { $0.id != truth[k].id }.count
      // Corners are compared where both found the marker.
      guard let hit = found.first(where: { $0.id == truth[k].id }) else { continue }
      ours += 1
      if let peer = theirs[k].first(where: { $0.0 == truth[k].id }) {
        ourErrors.append(error(hit.corners, truth[k].corners))
        theirErrors.append(error(peer.1, truth[k].corners))
      }
    }
    let ourMean = ourErrors.reduce(0, +) / Double(max(1, ourErrors.count))
    let theirMean = theirErrors.reduce(0, +) / Double(max(1, theirErrors.count))
    #expect(ours == frames && falseIds == 0, "found \(ours) of \(frames), \(falseIds) false")
    #expect(
      ourMean <= theirMean * 1.05 + 0.01,
      "\(curveName): mean corner error \(ourMean) px, OpenCV's \(theirMean) px")
  }
}
