import ARImage
import ARMath
import ARPose

/// A ChArUco diamond found in an image: a 3 × 3 chessboard with four markers of any ids in its
/// white squares (OpenCV's `drawCharucoDiamond`), identified by those ids.
public struct CharucoDiamond: Sendable, Equatable {
  /// The markers' ids, in the diamond's order: top, left, right, bottom (as drawn).
  public var ids: [Int]
  /// The four inner chessboard corners (ARScene's pixel convention), clockwise from the top
  /// left as drawn: where OpenCV's `detectCharucoDiamond` puts them.
  public var corners: [SIMD2<Double>]

  /// The diamonds `markers` (found in `image`) form, for diamonds whose squares are
  /// `squareToMarker` times their markers' side: each group of four markers that sit where one
  /// marker's homography puts the other three (OpenCV's `detectCharucoDiamond`), its corners
  /// then found as a ChArUco board's are (``MarkerBoard/charucoCorners(in:markers:)``). A group
  /// whose four corners are not all found is left out.
  public static func find(
    in image: RGBA8Image, markers: [DetectedMarker], squareToMarker: Double
  ) -> [CharucoDiamond] {
    guard squareToMarker > 1, squareToMarker.isFinite else { return [] }
    let layout = MarkerBoard(diamondWithSquare: squareToMarker)
    let centres = markers.map { $0.corners.reduce(SIMD2<Double>.zero, +) / 4 }
    var found: [CharucoDiamond] = [], used: [Set<Int>] = []
    for (k, marker) in markers.enumerated() where marker.corners.count == 4 {
      for position in 0..<4 {
        guard let group = group(from: k, at: position, markers, centres, layout), !used.contains(Set(group))
        else { continue }
        // The group as the layout's own markers 0…3, for its corners.
        let renumbered = (0..<4).map { p in
          DetectedMarker(id: p, corners: markers[group[p]].corners, hamming: markers[group[p]].hamming)
        }
        let corners = layout.charucoCorners(in: image, markers: renumbered)
        guard corners.count == 4 else { continue }
        let byID = Dictionary(uniqueKeysWithValues: corners.map { ($0.id, $0.pixel) })
        used.append(Set(group))
        found.append(
          CharucoDiamond(ids: group.map { markers[$0].id }, corners: [0, 1, 3, 2].map { byID[$0]! }))
      }
    }
    return found
  }

  /// The markers at the layout's four places when marker `k` stands at place `position`: each
  /// other place's centre, through `k`'s homography, within a fifth of a marker of a found
  /// marker's centre; nil when a place is empty.
  private static func group(
    from k: Int, at position: Int, _ markers: [DetectedMarker], _ centres: [SIMD2<Double>],
    _ layout: MarkerBoard
  ) -> [Int]? {
    guard let own = layout.markerCorners(id: position),
      let h = try? Homography.estimate(from: own, to: markers[k].corners)
    else { return nil }
    let side =
      (0..<4).map { (markers[k].corners[($0 + 1) % 4] - markers[k].corners[$0]).length }.reduce(0, +) / 4
    var group: [Int] = []
    for place in 0..<4 {
      if place == position {
        group.append(k)
        continue
      }
      guard let corners = layout.markerCorners(id: place),
        let predicted = h.apply(corners.reduce(SIMD2<Double>.zero, +) / 4),
        let nearest = centres.indices.min(by: {
          (centres[$0] - predicted).length < (centres[$1] - predicted).length
        }),
        (centres[nearest] - predicted).length < side / 5, nearest != k
      else { return nil }
      group.append(nearest)
    }
    return Set(group).count == 4 ? group : nil
  }
}

extension MarkerBoard {
  /// A diamond's layout: a 3 × 3 ChArUco board of squares `square` times its markers' side (1).
  /// Its markers are placed by the places their group gives them, not by a dictionary's ids:
  /// the dictionary is any.
  init(diamondWithSquare square: Double) {
    self.init(
      layout: .charuco(columns: 3, rows: 3, squareLength: square, markerLength: 1),
      dictionary: MarkerDictionary.all[0])
  }
}
