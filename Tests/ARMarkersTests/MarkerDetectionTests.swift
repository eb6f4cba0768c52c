import ARImage
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Markers found in synthetic frames of known truth: printed markers mapped into an image by a
/// homography (anti-aliased in linear light, with sensor noise), at seeded poses, turns and sizes.
@Suite("Marker detection")
struct MarkerDetectionTests {
  /// The light (0…1) of an sRGB-encoded level (0…255): samples are averaged in light, as a
  /// lens and a sensor's pixels average it.
  static func light(_ level: Double) -> Double { Double(SRGB.decode(Float(level / 255))) }
  /// The encoded level (0…255) of light (0…1).
  static func encoded(_ light: Double) -> Double { Double(SRGB.encode(Float(light))) * 255 }

  /// A frame with `marker` (drawn with a one-cell quiet zone, 10 px a cell) mapped so that its
  /// black border's corners (top-left, top-right, bottom-right, bottom-left as drawn) land on
  /// `corners`, over a grey background with Gaussian noise of `noise` levels.
  static func frame(
    _ dictionary: MarkerDictionary, id: Int, corners: [SIMD2<Double>], width: Int = 480, height: Int = 360,
    noise: Double = 2, seed: UInt64 = 1, supersampling: Int = 4
  ) throws -> RGBA8Image {
    let cells = dictionary.size + 4, cell = 10.0
    let printed = try dictionary.image(id: id, pixels: cells * 10, quietZone: 1)
    let border = [
      SIMD2(cell, cell), SIMD2(Double(cells) * cell - cell, cell),
      SIMD2(Double(cells - 1) * cell, Double(cells - 1) * cell), SIMD2(cell, Double(cells - 1) * cell),
    ]
    let toMarker = try Homography.estimate(from: corners, to: border)
    var random = SplitMix64(seed: seed)
    var pixels: [SIMD4<UInt8>] = []
    for y in 0..<height {
      for x in 0..<width {
        // `supersampling`² samples a pixel.
        var sum = 0.0
        let s = supersampling
        for sy in 0..<s {
          for sx in 0..<s {
            let p = SIMD2(
              Double(x) + (Double(sx) + 0.5) / Double(s), Double(y) + (Double(sy) + 0.5) / Double(s))
            if let m = toMarker.apply(p), m.x >= 0, m.y >= 0, m.x < Double(cells) * cell,
              m.y < Double(cells) * cell
            {
              // Print on paper under room light.
              sum += Self.light(Double(printed[Int(m.x), Int(m.y)].x) * 0.8 + 20)
            } else {
              sum += Self.light(120)
            }
          }
        }
        let v = UInt8(
          min(255, max(0, (Self.encoded(sum / Double(s * s)) + noise * random.gaussian()).rounded())))
        pixels.append(SIMD4(v, v, v, 255))
      }
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  @Test(
    "each dictionary's markers are found with their id and corners to a fraction of a pixel, in every turn",
    arguments: [
      "aruco_4x4_50", "aruco_5x5_100", "aruco_6x6_250", "aruco_original", "apriltag_36h11", "apriltag_16h5",
      "apriltag_25h9",
    ])
  func found(_ name: String) throws {
    let dictionary = try #require(MarkerDictionary.named(name))
    var random = SplitMix64(seed: UInt64(name.count))
    for turn in 0..<4 {
      // A quadrilateral of a marker seen in perspective, turned `turn` quarters.
      let centre = SIMD2(
        240 + Double.random(in: -40...40, using: &random), 180 + Double.random(in: -30...30, using: &random))
      let size = Double.random(in: 90...150, using: &random)
      let angle = Double.random(in: -0.3...0.3, using: &random) + Double(turn) * .pi / 2
      var corners = (0..<4).map { k -> SIMD2<Double> in
        let a = angle + Double(k) * .pi / 2 - 3 * .pi / 4
        return centre + SIMD2(cos(a), sin(a)) * size / 2 * 1.4142
      }
      corners[1] += SIMD2(
        Double.random(in: -8...8, using: &random), Double.random(in: -8...8, using: &random))  // perspective
      let id = Int.random(in: 0..<dictionary.codes.count, using: &random)
      let image = try Self.frame(dictionary, id: id, corners: corners, seed: UInt64(turn), supersampling: 3)
      let found = MarkerDetector(dictionary: dictionary).detect(image)
      #expect(found.count == 1 && found.first?.id == id, "\(name) turn \(turn): \(found.map(\.id)) for \(id)")
      if let marker = found.first, marker.id == id {
        let worst = zip(marker.corners, corners).map { ($0 - $1).length }.max()!
        #expect(worst < 0.3, "\(name) turn \(turn): corners off by \(worst) px")
        #expect(marker.hamming == 0)
      }
    }
  }

  @Test("no marker in an image of none, nor in a marker's own code drawn mirrored")
  func none() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    let blank = RGBA8Image(width: 200, height: 150, fill: SIMD4(128, 128, 128, 255))
    #expect(MarkerDetector(dictionary: dictionary).detect(blank).isEmpty)
    // A mirrored marker (corners counter-clockwise) is not its own id.
    let mirrored = [SIMD2(300.0, 100), SIMD2(180, 100), SIMD2(180, 220), SIMD2(300, 220)]
    let image = try Self.frame(dictionary, id: 17, corners: mirrored)
    #expect(!MarkerDetector(dictionary: dictionary).detect(image).contains { $0.id == 17 })
  }

  @Test(
    "many markers in one frame, small and large; white-on-black ones on request; a border half hidden is rejected, not misread"
  )
  func many() throws {
    let dictionary = try #require(MarkerDictionary.named("aruco_4x4_50"))
    // Three markers side by side: 24, 60 and 150 px across.
    var image = RGBA8Image(width: 480, height: 240, fill: SIMD4(150, 150, 150, 255))
    for (id, x, side) in [(3, 20, 24), (11, 80, 60), (29, 200, 150)] {
      let marker = try dictionary.image(id: id, pixels: side + side / 3, quietZone: 1)
      for y in 0..<marker.height { for dx in 0..<marker.width { image[x + dx, 40 + y] = marker[dx, y] } }
    }
    #expect(MarkerDetector(dictionary: dictionary).detect(image).map(\.id) == [3, 11, 29])
    // Inverted: white border on black.
    let inverted = RGBA8Image(
      width: image.width, height: image.height,
      pixels: image.pixels.map { SIMD4(255 - $0.x, 255 - $0.y, 255 - $0.z, 255) })
    #expect(MarkerDetector(dictionary: dictionary).detect(inverted).isEmpty)
    var detector = MarkerDetector(dictionary: dictionary)
    detector.inverted = true
    #expect(detector.detect(inverted).map(\.id) == [3, 11, 29])
    // A grey bar across the large marker's border and cells: not found, and nothing else found.
    var occluded = image
    for y in 40..<240 { for x in 260..<290 { occluded[x, y] = SIMD4(150, 150, 150, 255) } }
    #expect(MarkerDetector(dictionary: dictionary).detect(occluded).map(\.id) == [3, 11])
  }

  @Test(
    "a marker half the image wide, and one of 20 px, in perspective: found, corners to a fraction of a pixel",
    arguments: [("aruco_4x4_50", 320.0), ("aruco_6x6_250", 320.0), ("aruco_4x4_50", 20.0)])
  func extremeSizes(_ name: String, _ side: Double) throws {
    let dictionary = try #require(MarkerDictionary.named(name))
    let centre = SIMD2(320.0, 240.0)
    var corners = (0..<4).map { k -> SIMD2<Double> in
      let a = 0.2 + Double(k) * .pi / 2 - 3 * .pi / 4
      return centre + SIMD2(cos(a), sin(a)) * side / 2 * 1.4142
    }
    corners[2] += SIMD2(side / 20, -side / 30)  // perspective
    let image = try Self.frame(
      dictionary, id: 17, corners: corners, width: 640, height: 480, seed: 5, supersampling: 2)
    let found = MarkerDetector(dictionary: dictionary).detect(image)
    #expect(found.map(\.id) == [17])
    if let marker = found.first {
      let worst = zip(marker.corners, corners).map { ($0 - $1).length }.max()!
      #expect(worst < (side < 30 ? 0.5 : 0.3), "\(worst) px")
    }
  }
}
