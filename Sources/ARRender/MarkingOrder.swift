import ARMath

/// The order in which a worker marks a tile's opaque triangles (see
/// ``Renderer/markVisible(_:id:in:ties:)``): those facing one way, then those
/// facing the other, each in draw order; first the facing whose triangles lie nearer the camera.
///
/// A closed mesh drawn without culling (GL's default) has faces on its far side, which its near
/// side hides. Drawn in the mesh's order, the two sides alternate (a sphere's bands go all the
/// way round), so a tile marks far faces that later near ones overwrite: in a 100k-triangle
/// sphere, a third of the triangles marked. Near faces first, the far ones are found hidden by
/// ``HiddenTriangleTest``, which reads a quarter of what marking writes. Which facing is the near
/// one depends on the mesh's winding, so each tile takes the facing whose triangles' nearest
/// vertices are nearer on average.
///
/// The image does not change: each sample keeps the nearest triangle, and of equal depths the
/// one first in draw order (``DepthTies``), as drawing in draw order with a "less" depth test
/// would leave it. Only the tile's leading run of triangles marked with deferred shading is
/// arranged; from the first triangle drawn otherwise (blended or cut out), the rest go in draw
/// order.
struct MarkingOrder {
  /// The arranged triangles (first facing `false`, from the front, then facing `true`, from the
  /// back), and their ranks in draw order (their places in the tile's bins).
  private(set) var triangles: UnsafeMutablePointer<UnsafePointer<SetupTriangle>>
  private(set) var ranks: UnsafeMutablePointer<Int32>
  private var capacity = 0
  /// The positions in ``triangles`` to mark first, then those to mark after them, each in draw
  /// order.
  private(set) var first = 0..<0, second = 0..<0

  init() {
    (triangles, ranks) = (.allocate(capacity: 0), .allocate(capacity: 0))
  }

  func deallocate() {
    triangles.deallocate()
    ranks.deallocate()
  }

  /// Arranges the triangles binned to `tile` in `views`, from the first, as long as `deferred`
  /// holds for them (none after the first for which it does not). Returns where the triangles
  /// left in draw order start: the view and the position in its bins (the view count when none
  /// are left).
  @inline(__always)
  mutating func arrange(
    _ views: UnsafeBufferPointer<BinnedTriangles>, tile: Int,
    deferred: (UnsafePointer<SetupTriangle>) -> Bool
  ) -> (view: Int, position: Int) {
    let total = views.reduce(0) { $0 + Int($1.binStart[tile + 1] - $1.binStart[tile]) }
    reserve(total)
    // Branch-free: each triangle is written at both ends, and the end of its facing advances
    // (the facings alternate at random in a mesh's order).
    var front = 0, back = total &- 1
    var nearestSum = (front: Float(0), back: Float(0))
    var stop = (view: views.count, position: 0)
    scan: for v in views.indices {
      let setup = views[v]
      let end = Int(setup.binStart[tile + 1])
      var k = Int(setup.binStart[tile])
      while k < end {
        setup.prefetch(after: k, end: end)
        let t = setup.triangles + Int(setup.binned[k])
        guard deferred(t) else {
          stop = (v, k)
          break scan
        }
        let rank = Int32(truncatingIfNeeded: front &+ (total &- 1 &- back))
        (triangles[front], ranks[front]) = (t, rank)
        (triangles[back], ranks[back]) = (t, rank)
        let isBack = t.pointee.backFacing ? 1 : 0
        let nearest = LaneMath.least(t.pointee.z), weight = Float(isBack)
        nearestSum = (nearestSum.front + nearest * (1 - weight), nearestSum.back + nearest * weight)
        front &+= 1 &- isBack
        back &-= isBack
        k &+= 1
      }
    }
    // The back-facing ones, written from the end, into draw order.
    var (i, j) = (back &+ 1, total &- 1)
    while i < j {
      (triangles[i], triangles[j]) = (triangles[j], triangles[i])
      (ranks[i], ranks[j]) = (ranks[j], ranks[i])
      (i, j) = (i &+ 1, j &- 1)
    }
    let fronts = 0..<front, backs = (back &+ 1)..<total
    // Nearer on average (the sums compared as means, without dividing); one facing alone
    // needs no ties settled.
    if fronts.isEmpty || nearestSum.back * Float(fronts.count) < nearestSum.front * Float(backs.count) {
      (first, second) = (backs, fronts)
    } else {
      (first, second) = (fronts, backs)
    }
    return stop
  }

  private mutating func reserve(_ count: Int) {
    guard count > capacity else { return }
    deallocate()
    capacity = Swift.max(count, 2 * capacity)
    (triangles, ranks) = (.allocate(capacity: capacity), .allocate(capacity: capacity))
  }
}
