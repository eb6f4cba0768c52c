import Testing

@testable import ARMarkers

/// The grid a chessboard's corners are grown into, in its own axes.
@Suite("Chessboard grid")
struct ChessboardGridTests {
  @Test(
    "a board's keys grown on a sheared lattice (a diagonal taken for an axis) are put back on the board's rectangle",
    arguments: [(1, 0), (0, 1), (-2, 0), (1, 1), (0, -1)])
  func unsheared(alongX: Int, alongY: Int) {
    var grown: [SIMD2<Int>: Int] = [:]
    for y in 0..<7 {
      for x in 0..<10 {
        // Sheared along x, then along y; the values are the cells' raster indices.
        let a = SIMD2(x + alongX * y, y)
        grown[SIMD2(a.x, a.y + alongY * a.x)] = y * 10 + x
      }
    }
    let keys = ChessboardGrid.unsheared(grown)
    let low = keys.keys.reduce(SIMD2(Int.max, Int.max)) { pointwiseMin($0, $1) }
    let high = keys.keys.reduce(SIMD2(Int.min, Int.min)) { pointwiseMax($0, $1) }
    let size = high &- low &+ 1
    #expect(size == SIMD2(10, 7) || size == SIMD2(7, 10), "\(size)")
    // Neighbours on the board stay neighbours: each cell's right-hand one a unit step away.
    let place = Dictionary(uniqueKeysWithValues: keys.map { ($1, $0) })
    for y in 0..<7 {
      for x in 0..<9 {
        let step = place[y * 10 + x + 1]! &- place[y * 10 + x]!
        #expect(abs(step.x) + abs(step.y) == 1)
      }
    }
  }
}
