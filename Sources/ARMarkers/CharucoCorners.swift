import ARImage
import ARMath
import ARPose
import Foundation

/// A ChArUco board's chessboard corner found in an image: its id (inner corners row by row)
/// and pixel (ARScene's convention).
public struct CharucoCorner: Sendable, Equatable {
  /// The corner's id: inner chessboard corners counted row by row from 0.
  public var id: Int
  /// Where the corner is in the image, pixels (ARScene's convention).
  public var pixel: SIMD2<Double>

  /// A corner with this id at this pixel.
  public init(id: Int, pixel: SIMD2<Double>) {
    self.id = id
    self.pixel = pixel
  }
}

extension MarkerBoard {
  /// A ChArUco board's inner chessboard corners in the board's plane, metres, row by row
  /// (`(columns − 1) × (rows − 1)`, as OpenCV numbers them); none for a grid board.
  public var chessboardCorners: [SIMD2<Double>] {
    guard case .charuco(let columns, let rows, let square, _) = layout else { return [] }
    return (1..<rows).flatMap { y in (1..<columns).map { x in SIMD2(Double(x), Double(y)) * square } }
  }

  /// The ids of the two markers whose squares touch inner corner `id` (the white ones of the
  /// four squares about it).
  func markersAround(corner id: Int) -> [Int] {
    guard case .charuco(let columns, _, _, _) = layout else { return [] }
    let (x, y) = (id % (columns - 1) + 1, id / (columns - 1) + 1)
    var ids: [Int] = []
    for (dx, dy) in [(-1, -1), (0, -1), (-1, 0), (0, 0)]
    where (x + dx - firstWhiteColumn(row: y + dy)) % 2 == 0 {
      ids.append(markerID(column: x + dx, row: y + dy))
    }
    return ids
  }

  /// The id of the marker in white square (`column`, `row`) of a ChArUco board.
  private func markerID(column: Int, row: Int) -> Int {
    guard case .charuco(let columns, _, _, _) = layout else { return -1 }
    // White squares before this row: half the squares of the rows above, the odd rows' extra
    // square counted when the width is odd.
    var before = 0
    for r in 0..<row { before += (columns - firstWhiteColumn(row: r) + 1) / 2 }
    return before + (column - firstWhiteColumn(row: row)) / 2
  }

  /// The chessboard corners of a ChArUco board seen in `image`, from its `markers` found there,
  /// as OpenCV's `interpolateCornersCharuco` finds them: each inner corner whose two markers
  /// were both found, placed by each marker's homography (their mean), then refined to the
  /// saddle of the image's gradients (`cornerSubPix`) in a window that reaches no marker.
  public func charucoCorners(in image: RGBA8Image, markers: [DetectedMarker]) -> [CharucoCorner] {
    guard case .charuco = layout else { return [] }
    var homographies: [Int: Homography] = [:]
    for marker in markers where homographies[marker.id] == nil && marker.corners.count == 4 {
      guard let corners = markerCorners(id: marker.id),
        let h = try? Homography.estimate(from: corners, to: marker.corners)
      else { continue }
      homographies[marker.id] = h
    }
    let grey = GreyImage(image, inverted: false)
    defer { grey.recycle() }
    var found: [CharucoCorner] = []
    for (id, corner) in chessboardCorners.enumerated() {
      let around = markersAround(corner: id)
      let predictions = around.compactMap { homographies[$0]?.apply(corner) }
      guard predictions.count == around.count, !predictions.isEmpty else { continue }
      let guess = predictions.reduce(SIMD2<Double>.zero, +) / Double(predictions.count)
      // The window stays clear of the markers' corners (the nearest is the square's margin
      // away on the board).
      let nearest =
        markers.filter { around.contains($0.id) }.flatMap(\.corners).map { ($0 - guess).length }.min() ?? 10
      let half = Int(Swift.min(Swift.max((0.75 * nearest).rounded(.down), 2), 10))
      guard let refined = grey.saddle(near: guess, halfWindow: half), (refined - guess).length < Double(half)
      else { continue }
      found.append(CharucoCorner(id: id, pixel: refined))
    }
    return found
  }
}

extension GreyImage {
  /// The point whose neighbourhood's gradients all point across it (OpenCV's `cornerSubPix`):
  /// `q = (Σ w·g·gᵀ)⁻¹ Σ w·g·gᵀ·p` over a window of `2·halfWindow + 1` pixels a side about the
  /// estimate, Gaussian weights, iterated until it moves less than 0.001 px (at most 40 times);
  /// nil when the gradients do not fix a point.
  func saddle(near start: SIMD2<Double>, halfWindow: Int) -> SIMD2<Double>? {
    var q = start
    // The window's weights, and its levels one pixel wider each way: each level is sampled
    // once an iteration and serves the central differences of its four neighbours.
    let side = 2 * halfWindow + 1, wide = side + 2
    let weights = (-halfWindow...halfWindow).flatMap { j in
      (-halfWindow...halfWindow).map { i in exp(-Double(i * i + j * j) / Double(halfWindow * halfWindow)) }
    }
    var levels = [Double](repeating: 0, count: wide * wide)
    for _ in 0..<40 {
      for j in 0..<wide {
        for i in 0..<wide {
          levels[j * wide + i] = sample(q + SIMD2(Double(i - halfWindow - 1), Double(j - halfWindow - 1)))
        }
      }
      var a = SIMD3<Double>.zero, b = SIMD2<Double>.zero  // (gxx, gxy, gyy)
      for j in -halfWindow...halfWindow {
        for i in -halfWindow...halfWindow {
          let p = q + SIMD2(Double(i), Double(j))
          let k = (j + halfWindow + 1) * wide + i + halfWindow + 1
          let gx = (levels[k + 1] - levels[k - 1]) / 2
          let gy = (levels[k + wide] - levels[k - wide]) / 2
          let w = weights[(j + halfWindow) * side + i + halfWindow]
          let (xx, xy, yy) = (w * gx * gx, w * gx * gy, w * gy * gy)
          a += SIMD3(xx, xy, yy)
          b += SIMD2(xx * p.x + xy * p.y, xy * p.x + yy * p.y)
        }
      }
      let determinant = a.x * a.z - a.y * a.y
      guard determinant > 1e-9 * (a.x + a.z) * (a.x + a.z), determinant.isFinite else { return nil }
      let next = SIMD2(a.z * b.x - a.y * b.y, a.x * b.y - a.y * b.x) / determinant
      let moved = (next - q).length
      q = next
      if moved < 0.001 { break }
    }
    guard q.x.isFinite, q.y.isFinite, q.x >= 0, q.y >= 0, q.x <= Double(width), q.y <= Double(height) else {
      return nil
    }
    return q
  }
}
