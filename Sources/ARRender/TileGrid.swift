/// The square tiles a target is cut into.
struct TileGrid {
  let tileSize: Int, tilesX: Int, tilesY: Int
  var count: Int { tilesX * tilesY }

  /// log2 of the tile size when it is a power of two (a shift then finds the tile), else −1.
  private let shift: Int

  init(width: Int, height: Int, tileSize: Int) {
    self.tileSize = tileSize
    tilesX = (width + tileSize - 1) / tileSize
    tilesY = (height + tileSize - 1) / tileSize
    shift = tileSize & (tileSize - 1) == 0 ? tileSize.trailingZeroBitCount : -1
  }

  /// The tile row or column of sample row or column `i`.
  @inline(__always)
  func tile(_ i: Int) -> Int { shift >= 0 ? i >> shift : i / tileSize }
}
