import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// Distant tags: seeded tag36h11 tags 8 to 24 pixels across (their black border), turned and in
/// perspective, under sensor noise, a slight blur and JPEG (quality 85, by OpenCV), found side
/// by side with the AprilTag library's own detector (Debian's libapriltag3) on the same files.
@Suite("Small tags against the AprilTag library")
struct SmallTagTests {
  static let peers: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0

  @Test(
    "recall at least the AprilTag library's at every size, no false ids, 7 of 8 or more from 14 px up",
    .enabled(if: peers, "needs Debian's python3-opencv and libapriltag3"))
  func againstAprilTag() throws {
    let folder = try TemporaryFolder()
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    var random = SplitMix64(seed: 77)
    let sides: [Double] = [8, 10, 12, 14, 16, 20, 24]
    var truth: [(id: Int, side: Double)] = []
    for k in 0..<(sides.count * 8) {
      let side = sides[k % sides.count]
      let centre = SIMD2(
        48 + Double.random(in: -6...6, using: &random), 48 + Double.random(in: -6...6, using: &random))
      let angle = Double.random(in: 0..<(2 * .pi), using: &random)
      let corners = (0..<4).map { c -> SIMD2<Double> in
        let a = angle + Double(c) * .pi / 2 - 3 * .pi / 4
        let squeeze = 1 + Double.random(in: -0.08...0.08, using: &random)
        return centre + SIMD2(cos(a), sin(a)) * side / 2 * 1.4142 * squeeze
      }
      let id = Int.random(in: 0..<587, using: &random)
      var image = try MarkerDetectionTests.frame(
        dictionary, id: id, corners: corners, width: 96, height: 96, noise: 0, seed: UInt64(k),
        supersampling: 4)
      // A slight blur (in light, as a lens blurs), then sensor noise.
      var blurred = image
      for y in 1..<95 {
        for x in 1..<95 {
          var sum = 0.0
          for dy in -1...1 {
            for dx in -1...1 {
              sum +=
                MarkerDetectionTests.light(Double(image[x + dx, y + dy].x)) * (dx == 0 && dy == 0 ? 4 : 0.5)
            }
          }
          let v = MarkerDetectionTests.encoded(sum / 8) + 3 * random.gaussian()
          let byte = UInt8(Swift.min(255, Swift.max(0, v.rounded())))
          blurred[x, y] = SIMD4(byte, byte, byte, 255)
        }
      }
      image = blurred
      try ImageFile.writePNG(image, to: folder.path + "/tag\(k).png")
      truth.append((id, side))
    }
    let count = truth.count
    let files = try Self.jpegCopies(in: folder.path, count: count)
    let peer = try PythonPeer.runScript(
      Fixtures.root + "/../../Tools/peers/marker_detectors.py",
      arguments: ["apriltag", "apriltag_36h11", "1"] + files)
    try #require(peer.status == 0, "\(peer.output)")
    struct Line: Decodable {
      var image: String; var markers: [Marker]; struct Marker: Decodable { var id: Int }
    }
    var theirs: [String: [Int]] = [:]
    for line in peer.output.split(separator: "\n") {
      let decoded = try JSONDecoder().decode(Line.self, from: Data(line.utf8))
      theirs[decoded.image] = decoded.markers.map(\.id)
    }
    let detector = MarkerDetector(dictionary: dictionary)
    var ours: [Double: Int] = [:], april: [Double: Int] = [:], falseIds = 0
    for (k, tag) in truth.enumerated() {
      let found = detector.detect(try ImageFile.readRGBA8(files[k])).map(\.id)
      falseIds += found.filter { $0 != tag.id }.count
      ours[tag.side, default: 0] += found.contains(tag.id) ? 1 : 0
      april[tag.side, default: 0] += (theirs[files[k]] ?? []).contains(tag.id) ? 1 : 0
    }
    for side in sides {
      #expect(
        ours[side, default: 0] >= april[side, default: 0],
        "\(side) px: ours \(ours[side, default: 0]) of 8, AprilTag \(april[side, default: 0])")
      if side >= 14 { #expect(ours[side, default: 0] >= 7, "\(side) px: \(ours[side, default: 0]) of 8") }
    }
    #expect(falseIds == 0)
  }

  /// JPEG copies (quality 85, by OpenCV) of `folder`/tag0.png … tag`count - 1`.png, as a
  /// phone's camera would store them; their paths.
  static func jpegCopies(in folder: String, count: Int) throws -> [String] {
    let script = """
      import cv2, sys
      for k in range(int(sys.argv[2])):
          image = cv2.imread(f"{sys.argv[1]}/tag{k}.png", cv2.IMREAD_GRAYSCALE)
          cv2.imwrite(f"{sys.argv[1]}/tag{k}.jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
      """
    let jpeg = try PythonPeer.run(script, arguments: [folder, String(count)], packages: "none")
    try #require(jpeg.status == 0, "\(jpeg.output)")
    return (0..<count).map { folder + "/tag\($0).jpg" }
  }

  @Test("no marker in seeded textures of every scale, blurred or hard-edged, in any dictionary")
  func noneInTexture() throws {
    for seed in 0..<6 {
      var random = SplitMix64(seed: UInt64(seed) + 500)
      let (w, h) = (480, 360)
      var value = [Double](repeating: 128, count: w * h)
      // Value noise of cells 1 to 16 pixels, added up: specks to blobs the size of small tags.
      for scale in [1, 2, 4, 8, 16] {
        let (cw, ch) = (w / scale + 2, h / scale + 2)
        let cells = (0..<(cw * ch)).map { _ in random.gaussian() * 25 }
        for y in 0..<h { for x in 0..<w { value[y * w + x] += cells[(y / scale) * cw + x / scale] } }
      }
      let hard = seed % 2 == 0
      let image = RGBA8Image(
        width: w, height: h,
        pixels: value.map { v in
          let byte = hard ? (v > 128 ? 255 : 0) : UInt8(Swift.min(255, Swift.max(0, v.rounded())))
          return SIMD4(UInt8(byte), UInt8(byte), UInt8(byte), 255)
        })
      for name in ["apriltag_36h11", "aruco_4x4_50", "aruco_6x6_250"] {
        let found = MarkerDetector(dictionary: try #require(MarkerDictionary.named(name))).detect(image)
        #expect(found.isEmpty, "seed \(seed), \(name): \(found.map(\.id))")
      }
    }
  }
}
