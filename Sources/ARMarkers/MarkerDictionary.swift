import ARImage

/// A family of square fiducial markers: ArUco's predefined dictionaries and AprilTag's
/// families, each marker's cells bit for bit as its reference implementation defines them
/// (OpenCV's `cv2.aruco`; the AprilTag library's own drawing; Tools/generate-marker-dictionaries).
///
/// A marker is a square of cells: a black border one cell wide around `size` × `size` data
/// cells, white for a 1 bit. Printed, it needs a white quiet zone around the border.
public struct MarkerDictionary: Sendable, Equatable {
  /// The dictionary's name: OpenCV's predefined `aruco_NxN_COUNT` (N 4 to 7, COUNT 50, 100, 250
  /// or 1000) and `aruco_original`; AprilTag's `apriltag_36h11`, `apriltag_36h10`,
  /// `apriltag_25h9` and `apriltag_16h5`.
  public let name: String
  /// Data cells along a side (the border excluded).
  public let size: Int
  /// Bit errors a detector corrects (OpenCV's `maxCorrectionBits`; AprilTag: (h − 1) / 2).
  public let correctableBits: Int
  /// The family's published minimum Hamming distance between codes (AprilTag's h), if any.
  public let minimumDistance: Int?
  /// The markers' codes by id: data cells row by row from the top left, 1 white, the first
  /// cell in bit `size² − 1`.
  public let codes: [UInt64]
  /// Where the codes come from.
  public let source: String

  /// Every dictionary ARScene knows.
  public static let all: [MarkerDictionary] = generated.map {
    name, size, correctable, distance, codes, source in
    MarkerDictionary(
      name: name, size: size, correctableBits: correctable, minimumDistance: distance, codes: codes,
      source: source)
  }

  /// The dictionary called `name` (see ``name``), or nil.
  public static func named(_ name: String) -> MarkerDictionary? { all.first { $0.name == name.lowercased() } }

  /// Marker `id`'s data cells, rows from the top, true for white.
  ///
  /// - Precondition: `id` is in `codes.indices`.
  public func cells(of id: Int) -> [[Bool]] {
    let code = codes[id], count = size * size
    return (0..<size).map { row in
      (0..<size).map { column in code >> UInt64(count - 1 - (row * size + column)) & 1 == 1 }
    }
  }

  /// Why a marker could not be drawn.
  public enum MarkerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The id is not in the dictionary, which has `count` markers.
    case unknownId(Int, dictionary: String, count: Int)
    /// The image is too small for the marker's cells (its side in pixels, the cells across).
    case tooSmall(pixels: Int, cells: Int)

    public var description: String {
      switch self {
      case .unknownId(let id, let dictionary, let count): "\(dictionary) has ids 0 to \(count - 1), not \(id)"
      case .tooSmall(let pixels, let cells):
        "\(pixels) pixels cannot hold \(cells) cells (at least one pixel a cell)"
      }
    }
  }

  /// Marker `id` drawn `pixels` wide: `quietZone` white cells around the black border, then the
  /// data cells, each image pixel taking the cell under it by nearest-neighbour sampling as
  /// OpenCV's `generateImageMarker` does (exactly whole cells when `pixels` is a multiple of
  /// the cells across). Grey, 0 black and 255 white, in all four channels but alpha.
  ///
  /// - Throws: ``MarkerError`` for an id outside the dictionary or fewer pixels than cells.
  public func image(id: Int, pixels: Int, quietZone: Int = 1) throws(MarkerError) -> RGBA8Image {
    guard codes.indices.contains(id) else { throw .unknownId(id, dictionary: name, count: codes.count) }
    let across = size + 2 + 2 * max(0, quietZone)
    guard pixels >= across else { throw .tooSmall(pixels: pixels, cells: across) }
    let data = cells(of: id), q = max(0, quietZone)
    func white(_ row: Int, _ column: Int) -> Bool {
      let (r, c) = (row - q, column - q)
      guard r >= 0, c >= 0, r < size + 2, c < size + 2 else { return true }  // the quiet zone
      guard r >= 1, c >= 1, r <= size, c <= size else { return false }  // the border
      return data[r - 1][c - 1]
    }
    var image = RGBA8Image(width: pixels, height: pixels, fill: SIMD4(255, 255, 255, 255))
    // The cell under each pixel, as cv::resize's INTER_NEAREST picks it: floor(x · cells / pixels).
    let cellOf = (0..<pixels).map { $0 * across / pixels }
    for y in 0..<pixels {
      for x in 0..<pixels where !white(cellOf[y], cellOf[x]) {
        image.pixels[y * pixels + x] = SIMD4(0, 0, 0, 255)
      }
    }
    return image
  }
}
