import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Small tags on the faces of cubes lying in the sun, as in the AprilTag library's own test
/// photographs (the NASA Swarmathon cubes): each shaded face's tag has a narrow white margin,
/// and just past it lies the cube's sunlit top face, far lighter than the margin. Seeded frames,
/// side by side with the AprilTag library's detector on the same JPEG files. (On those
/// photographs a window-mean threshold darkened such margins and joined tags to their
/// neighbours; these drawn frames do not reproduce that, and ``MidpointThresholdTests`` pins
/// the case down pixel by pixel.)
@Suite("Small tags on sunlit cubes against the AprilTag library")
struct CubeTagTests {
  /// A cube seen from above and the front: its front face a quadrilateral whose printed tag's
  /// black border is `side` pixels across, its top face above it and its right face beside it,
  /// both foreshortened; the right face carries a second tag.
  struct Cube {
    var front: [SIMD2<Double>]
    var top: [SIMD2<Double>]
    var right: [SIMD2<Double>]
    var ids: (front: Int, right: Int)

    init(centre: SIMD2<Double>, side: Double, ids: (Int, Int), random: inout SplitMix64) {
      // The face is the tag's ten cells: eight of black border and a one-cell margin each side.
      let face = side * 10 / 8
      let jitter = { (r: inout SplitMix64) in SIMD2(Double.random(in: -0.6...0.6, using: &r), 0) }
      let (a, b) = (
        centre + SIMD2(-face / 2, -face / 2), centre + SIMD2(face / 2, -face / 2) + jitter(&random)
      )
      let (c, d) = (centre + SIMD2(face / 2, face / 2), centre + SIMD2(-face / 2, face / 2) + jitter(&random))
      let depth = SIMD2(face * Double.random(in: 0.5...0.9, using: &random), -face * 0.35)
      front = [a, b, c, d]
      // The top face's edge reaches a little into the front's margin: the margins of the cubes'
      // tags are narrower than a cell.
      let lip = SIMD2(0, face / 10 * Double.random(in: 0.4...0.7, using: &random))
      top = [a + depth, b + depth, b + lip, a + lip]
      right = [b, b + depth, c + depth, c]
      self.ids = ids
    }
  }

  /// A face's tag image (with its one-cell margin) and the map from the image to it.
  typealias Printed = (image: RGBA8Image, toFace: Homography)

  /// Whether `p` lies inside the convex quadrilateral `q` (corners clockwise on the image).
  static func inside(_ p: SIMD2<Double>, _ q: [SIMD2<Double>]) -> Bool {
    (0..<4).allSatisfy { i in
      let (a, b) = (q[i], q[(i + 1) % 4])
      return (b - a).x * (p - a).y - (b - a).y * (p - a).x >= 0
    }
  }

  /// The encoded level (0…255) at `p`: sunlit top faces at 250, shaded fronts' paper at 150 and
  /// ink at 15, right faces a little darker, gravel at 120.
  static func level(_ p: SIMD2<Double>, cubes: [Cube], printed: [[Printed]]) -> Double {
    for (k, cube) in cubes.enumerated() {
      if inside(p, cube.top) { return 250 }
      for (face, paper, ink) in [(0, 150.0, 15.0), (1, 140.0, 12.0)] {
        let quad = face == 0 ? cube.front : cube.right
        let tag = printed[k][face]
        guard inside(p, quad), let m = tag.toFace.apply(p) else { continue }
        let n = tag.image.width
        let (x, y) = (Swift.min(n - 1, Swift.max(0, Int(m.x))), Swift.min(n - 1, Swift.max(0, Int(m.y))))
        return tag.image[x, y].x > 128 ? paper : ink
      }
    }
    return 120
  }

  @Test(
    "recall at least the AprilTag library's at every size, no false ids, on tags of 12 to 20 px beside sunlit faces",
    .enabled(if: SmallTagTests.peers, "needs Debian's python3-opencv and libapriltag3"))
  func againstAprilTag() throws {
    let folder = try TemporaryFolder()
    let dictionary = try #require(MarkerDictionary.named("apriltag_36h11"))
    var random = SplitMix64(seed: 4711)
    let sides: [Double] = [12, 14, 16, 18, 20]
    var truth: [(ids: Set<Int>, side: Double)] = []
    for k in 0..<(sides.count * 6) {
      let side = sides[k % sides.count]
      // Two cubes side by side, almost touching, as they lay on the field.
      let (w, h) = (144, 80)
      let ids = (0..<4).map { _ in Int.random(in: 0..<587, using: &random) }
      let first = Cube(centre: SIMD2(38, 46), side: side, ids: (ids[0], ids[1]), random: &random)
      let gap = Double.random(in: 2...6, using: &random)
      let second = Cube(
        centre: SIMD2(first.right[1].x + gap + side * 10 / 16, 46), side: side,
        ids: (ids[2], ids[3]),
        random: &random)
      let cubes = [first, second]
      let n = 100
      let square = [SIMD2(0.0, 0), SIMD2(Double(n), 0), SIMD2(Double(n), Double(n)), SIMD2(0, Double(n))]
      let printed = try cubes.map { cube in
        try [(cube.ids.front, cube.front), (cube.ids.right, cube.right)].map { id, face in
          (
            try dictionary.image(id: id, pixels: n, quietZone: 1),
            try Homography.estimate(from: face, to: square)
          )
        }
      }
      let image = Self.render(width: w, height: h, cubes: cubes, printed: printed, random: &random)
      try ImageFile.writePNG(image, to: folder.path + "/tag\(k).png")
      truth.append((Set(ids), side))
    }
    let files = try SmallTagTests.jpegCopies(in: folder.path, count: truth.count)
    let theirs = try RenderedCardTests.peer("apriltag", "apriltag_36h11", files)
    let detector = MarkerDetector(dictionary: dictionary)
    var ours: [Double: Int] = [:], april: [Double: Int] = [:], falseIds: [Int] = []
    for (k, expected) in truth.enumerated() {
      let found = detector.detect(try ImageFile.readRGBA8(files[k])).map(\.id)
      falseIds += found.filter { !expected.ids.contains($0) }
      ours[expected.side, default: 0] += Set(found).intersection(expected.ids).count
      april[expected.side, default: 0] += Set(theirs[k].map(\.id)).intersection(expected.ids).count
    }
    for side in sides {
      #expect(
        ours[side, default: 0] >= april[side, default: 0],
        "\(side) px: ours \(ours[side, default: 0]) of 24, AprilTag \(april[side, default: 0])")
    }
    #expect(falseIds.isEmpty, "false ids \(falseIds)")
  }

  /// The cubes drawn with 4 × 4 samples a pixel (averaged in light), then a slight blur and
  /// sensor noise as in ``SmallTagTests``.
  static func render(
    width w: Int, height h: Int, cubes: [Cube], printed: [[Printed]],
    random: inout SplitMix64
  ) -> RGBA8Image {
    var light = [Double](repeating: 0, count: w * h)
    for y in 0..<h {
      for x in 0..<w {
        light[y * w + x] = pixelMean(x: x, y: y, samples: 4) {
          MarkerDetectionTests.light(level($0, cubes: cubes, printed: printed))
        }
      }
    }
    var pixels = [SIMD4<UInt8>](repeating: SIMD4(120, 120, 120, 255), count: w * h)
    for y in 1..<(h - 1) {
      for x in 1..<(w - 1) {
        var sum = 0.0
        for dy in -1...1 {
          for dx in -1...1 { sum += light[(y + dy) * w + x + dx] * (dx == 0 && dy == 0 ? 4 : 0.5) }
        }
        let v = MarkerDetectionTests.encoded(sum / 8) + 3 * random.gaussian()
        let byte = UInt8(Swift.min(255, Swift.max(0, v.rounded())))
        pixels[y * w + x] = SIMD4(byte, byte, byte, 255)
      }
    }
    return RGBA8Image(width: w, height: h, pixels: pixels)
  }
}
