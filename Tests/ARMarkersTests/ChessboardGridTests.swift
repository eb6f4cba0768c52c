import Foundation
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

  @Test("a line's next step continues its steps' change: shrinking and turning as they do, within bounds")
  func continuedSteps() {
    // Steps shrinking by a quarter and turning 10° each: the next continues both.
    func turned(_ v: SIMD2<Double>, degrees: Double) -> SIMD2<Double> {
      let r = degrees * .pi / 180
      return SIMD2(v.x * cos(r) - v.y * sin(r), v.x * sin(r) + v.y * cos(r))
    }
    let previous = SIMD2(0.0, 100.0), last = turned(previous, degrees: 10) * 0.75
    let next = ChessboardGrid.continued(last, after: previous)
    let expected = turned(previous, degrees: 20) * 0.5625
    #expect((next - expected).length < 1e-9, "\(next) vs \(expected)")
    // A turn past 30° is noise: the last step again. A ratio past 2 is held at 2.
    #expect(
      ChessboardGrid.continued(turned(previous, degrees: 40), after: previous)
        == turned(previous, degrees: 40))
    #expect(ChessboardGrid.continued(previous * 3, after: previous) == previous * 6)
  }
}
