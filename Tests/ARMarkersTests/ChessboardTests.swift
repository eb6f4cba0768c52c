import ARImage
import ARMarkers
import ARMath
import ARPose
import ARTestSupport
import Foundation
import Testing

/// Plain chessboards drawn in perspective (seeded): every inner corner found, where it is, in
/// the board's order.
@Suite("Chessboards")
struct ChessboardTests {
  /// A board of `squares` (columns, rows) whose outer corners land on `quad` (clockwise from the
  /// top-left), in a white margin of one square, over a mid-grey background, 3 × 3 samples a
  /// pixel, with Gaussian noise of `noise` levels.
  static func drawn(
    squares: (Int, Int), quad: [SIMD2<Double>], width: Int, height: Int, noise: Double,
    random: inout SplitMix64
  ) throws -> (image: RGBA8Image, board: Homography) {
    let (c, r) = (Double(squares.0), Double(squares.1))
    let board = try Homography.estimate(from: [[0, 0], [c, 0], [c, r], [0, r]], to: quad)
    let inverse = try Homography.estimate(from: quad, to: [[0, 0], [c, 0], [c, r], [0, r]])
    var image = RGBA8Image(width: width, height: height, fill: SIMD4(128, 128, 128, 255))
    for y in 0..<height {
      for x in 0..<width {
        let light = pixelMean(x: x, y: y, samples: 3) { p in
          guard let b = inverse.apply(p) else { return 0 }
          if b.x < -1 || b.y < -1 || b.x > c + 1 || b.y > r + 1 { return 0.2 }
          if b.x < 0 || b.y < 0 || b.x >= c || b.y >= r { return 0.85 }
          return (Int(b.x.rounded(.down)) + Int(b.y.rounded(.down))) % 2 == 0 ? 0.02 : 0.85
        }
        let gaussian =
          (-2 * log(Double.random(in: 1e-12..<1, using: &random))).squareRoot()
          * cos(2 * .pi * Double.random(in: 0..<1, using: &random))
        let encoded = 255 * SRGB.encode(Float(light)) + Float(noise * gaussian)
        let v = UInt8(Swift.min(Swift.max(encoded.rounded(), 0), 255))
        image[x, y] = SIMD4(v, v, v, 255)
      }
    }
    return (image, board)
  }

  @Test(
    "ten seeded boards of 8 × 6 squares, 18 to 45 px each, in perspective under noise: all 35 corners, within 0.35 px at worst"
  )
  func seeded() throws {
    var random = SplitMix64(seed: 61)
    let chessboard = try #require(Chessboard(columns: 7, rows: 5, square: 0.03))
    for frame in 0..<10 {
      let side = Double.random(in: 18...45, using: &random)
      let centre = SIMD2(
        Double.random(in: 280...360, using: &random), Double.random(in: 220...260, using: &random))
      let angle = Double.random(in: 0..<(2 * .pi), using: &random)
      let axes = (SIMD2(cos(angle), sin(angle)), SIMD2(-sin(angle), cos(angle)))
      var quad = [(-4.0, -3.0), (4.0, -3.0), (4.0, 3.0), (-4.0, 3.0)].map { u, v in
        centre + (axes.0 * u + axes.1 * v) * side
      }
      // Perspective: each corner moved by up to a tenth of the board's width.
      for k in 0..<4 {
        quad[k] +=
          SIMD2(
            Double.random(in: -0.8...0.8, using: &random), Double.random(in: -0.8...0.8, using: &random))
          * side
      }
      let (image, board) = try Self.drawn(
        squares: (8, 6), quad: quad, width: 640, height: 480, noise: 3, random: &random)
      let found = try #require(chessboard.find(in: image), "frame \(frame): not found")
      // The truth in the board's order, or turned half a turn: both are the board's frame.
      let truth = (0..<5).flatMap { row in
        (0..<7).map { column in SIMD2(Double(column + 1), Double(row + 1)) }
      }
      .map { board.apply($0)! }
      let errors = [truth, truth.reversed()].map { order in zip(found, order).map { ($0 - $1).length } }
        .min { $0.max()! < $1.max()! }!
      let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
      // The saddle fit (OpenCV's cornerSubPix) leans where perspective makes the junction's
      // angles unequal: measured 0.10 to 0.28 px at worst, noise or not.
      #expect(errors.max()! < 0.35 && rms < 0.15, "frame \(frame): \(errors.max()!) px at worst, RMS \(rms)")
    }
  }

  @Test(
    "a board of 10 × 7 corners seen along a table and from the side (rows half as tall as the squares are wide, leaning): every corner, in order"
  )
  func alongTheTable() throws {
    // Squares 27 px wide, rows 15 px tall and leaning 12 px: a step along a row and one down a
    // column together (21 px) are nearer than a step along the row, as on a real webcam
    // photograph whose growth from every seed took that diagonal for an axis and spread the
    // corners over a sheared grid.
    var random = SplitMix64(seed: 72)
    let quad: [SIMD2<Double>] = [[400, 330], [700, 330], [600, 450], [300, 450]]
    let (image, board) = try Self.drawn(
      squares: (11, 8), quad: quad, width: 960, height: 540, noise: 2, random: &random)
    let chessboard = try #require(Chessboard(columns: 10, rows: 7, square: 0.024))
    // Found first: a failed expectation on the call would print the whole image.
    let corners = chessboard.find(in: image)
    let found = try #require(corners, "not found")
    let truth = (0..<7).flatMap { row in (0..<10).map { SIMD2(Double($0 + 1), Double(row + 1)) } }
      .map { board.apply($0)! }
    let errors = [truth, truth.reversed()].map { order in zip(found, order).map { ($0 - $1).length } }
      .min { $0.max()! < $1.max()! }!
    #expect(errors.max()! < 0.5, "\(errors.max()!) px at worst")
  }

  @Test("an image without the whole board, or with another board, gives nothing")
  func absent() throws {
    var random = SplitMix64(seed: 7)
    let quad: [SIMD2<Double>] = [[160, 120], [480, 120], [480, 360], [160, 360]]
    let (image, _) = try Self.drawn(
      squares: (8, 6), quad: quad, width: 640, height: 480, noise: 2, random: &random)
    #expect(try #require(Chessboard(columns: 9, rows: 6, square: 0.03)).find(in: image) == nil)
    #expect(try #require(Chessboard(columns: 7, rows: 5, square: 0.03)).find(in: image)?.count == 35)
    let blank = RGBA8Image(width: 320, height: 240, fill: SIMD4(200, 200, 200, 255))
    #expect(try #require(Chessboard(columns: 7, rows: 5, square: 0.03)).find(in: blank) == nil)
  }
}
