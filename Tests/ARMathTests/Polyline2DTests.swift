import ARMath
import Testing

@Suite("Plane polylines and polygons")
struct Polyline2DTests {
  static let square: [SIMD2<Double>] = [[0, 0], [4, 0], [4, 4], [0, 4]]

  @Test("inside and outside by the even–odd rule, distances to the boundary signed, positions along the path")
  func square() {
    #expect(
      Polyline2D.contains([1, 1], ring: Self.square) && !Polyline2D.contains([5, 1], ring: Self.square))
    #expect(Polyline2D.signedDistance([1, 2], ring: Self.square) == -1)
    #expect(Polyline2D.signedDistance([7, 2], ring: Self.square) == 3)
    #expect(Polyline2D.signedDistance([7, 8], ring: Self.square) == 5)  // to the corner (4, 4)
    // Along the open path (0,0)→(4,0)→(4,4)→(0,4): the nearest point of (5, 3) is (4, 3), 7 along.
    let (d, along) = Polyline2D.nearest([5, 3], on: Self.square)
    #expect(d == 1 && along == 7)
    // Closed, the last edge back to (0, 0) counts: (−1, 2) is 1 from it, 14 along.
    #expect(Polyline2D.nearest([-1, 2], on: Self.square, closed: true) == (1, 14))
    // A concave ring: the notch is outside.
    let notched: [SIMD2<Double>] = [[0, 0], [6, 0], [6, 6], [3, 2], [0, 6]]
    #expect(!Polyline2D.contains([3, 4], ring: notched) && Polyline2D.contains([3, 1], ring: notched))
    #expect(Polyline2D.nearest([1, 1], on: []).distance == .infinity)
  }
}
