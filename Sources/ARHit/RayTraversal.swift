import CMathShims

/// One ray's walk through a ``BoundingVolumeHierarchy``, one node visit a step, so that a
/// thread can keep several rays in flight and switch between them.
///
/// An incoherent ray spends most of its time waiting for memory: every node and leaf it opens
/// is a cache miss, and each depends on the last. One ray alone leaves the core idle; several,
/// stepped in turn, each ask for their next node and leaf packets a step ahead and find them
/// arrived when their turn comes again (the batch queries keep ``inFlight`` walks going).
///
/// A step first tests the triangles of the leaves the last visit found (their packets were
/// asked for then), then visits the next node: it tests the node's four boxes in `Float`
/// (conservatively, ``WideBoxRay``), asks for the packets of the leaves it hits and the inner
/// children it hits, and stacks the children, nearest on top. Stacked nodes carry their entry
/// distance and are skipped once a nearer hit has been found. A node chosen before the last
/// leaves were tested is checked again against their hits, so deferring the leaves only ever
/// costs a box test, never a hit.
struct RayTraversal {
  /// Walks one batch query keeps going on a thread.
  static var inFlight: Int { 8 }

  let shear: RayShear
  let boxRay: WideBoxRay
  let tMin: Double, tMax: Double
  /// `tMin` as a scaled `Float` parameter, rounded down.
  let near: Float
  let anyHit: Bool
  /// The best hit so far; until there is one, parameter `tMax` and triangle `Int.max` (of hits
  /// at the same parameter the lowest triangle index wins, whatever order the leaves come in).
  var hit: MeshHit
  /// The best hit's parameter as a scaled `Float` parameter, rounded up.
  var far: Float
  /// The stack of nodes still to visit (``BoundingVolumeHierarchy/stackCapacity`` entries).
  let stack: UnsafeMutablePointer<StackEntry>
  var top = 0
  /// The node the next step visits (-1: none), and the scaled distance at which the ray
  /// enters it.
  var node: Int32 = 0
  var nodeEntry: Float = -.infinity
  /// The last visited node, and the leaves of it the ray hits (a bit a lane), to test next.
  var leafNode: Int32 = 0
  var leafLanes = 0

  /// A walk of `ray` over parameters [tMin, tMax] from the root, keeping its stack at `stack`.
  /// `anyHit`: stop at the first hit found rather than the nearest.
  @inline(__always)
  init(_ ray: HitRay, tMin: Double, tMax: Double, anyHit: Bool, stack: UnsafeMutablePointer<StackEntry>) {
    shear = RayShear(ray)
    boxRay = WideBoxRay(ray)
    self.tMin = tMin
    self.tMax = tMax
    near = boxRay.scaledBelow(tMin)
    self.anyHit = anyHit
    hit = MeshHit(t: tMax, triangle: .max, u: 0, v: 0)
    far = boxRay.scaledAbove(tMax)
    self.stack = stack
  }

  /// The walk's answer: its best hit, if it found one.
  var best: MeshHit? { hit.triangle == .max ? nil : hit }

  /// Takes a step over the tree at `nodes` with leaf packets at `records`; false once the walk
  /// is over, with its answer in ``best``.
  @inline(__always)
  mutating func step<S: LeafScalar>(nodes: UnsafeRawPointer, records: UnsafePointer<S>) -> Bool {
    while leafLanes != 0 {
      // Tested in lane order, each hit shortening the ray for the rest.
      let lane = leafLanes.trailingZeroBitCount
      leafLanes &= leafLanes - 1
      let packet = records + LeafTriangles.packetLength * Int(~WideNode.child(address(leafNode, nodes), lane))
      if let h = shear.intersect(packet: packet, tMin: tMin, tMax: tMax, before: (hit.t, hit.triangle)) {
        hit = MeshHit(
          t: h.t, triangle: packet[LeafTriangles.indexOffset + h.lane].triangleIndex, u: h.u, v: h.v)
        far = boxRay.scaledAbove(hit.t)
        if anyHit { return false }
      }
    }
    // The next node, unless a hit found since it was chosen leaves it behind.
    let limit = far * WideBoxRay.widen
    while nodeEntry > limit {
      if top == 0 { return false }
      top -= 1
      (node, nodeEntry) = (stack[top].node, stack[top].entry)
    }
    if node < 0 { return false }

    let n = address(node, nodes)
    let (entry, hits) = boxRay.test(n, near: near, far: far)
    // Lanes as bit sets, walked lowest bit first: a branch per lane on "leaf or inner" was the
    // costliest line of the traversal (mispredicted), more than any arithmetic.
    let leaves = hits & WideNode.leafLanes(n)
    var inner = hits & ~leaves
    // Ask for every leaf packet and child this visit found before any of them is used.
    var pending = leaves
    while pending != 0 {
      let packet = UnsafeRawPointer(
        records + LeafTriangles.packetLength * Int(~WideNode.child(n, pending.trailingZeroBitCount)))
      arscene_prefetch_range(packet, LeafTriangles.packetBytes(S.self))
      pending &= pending - 1
    }
    pending = inner
    while pending != 0 {
      let child = address(WideNode.child(n, pending.trailingZeroBitCount), nodes)
      arscene_prefetch(child)
      arscene_prefetch(child + 64)
      pending &= pending - 1
    }
    (leafNode, leafLanes) = (node, leaves)
    // Inner children stacked in order of entry, farthest at the bottom (insertion among at most
    // four), and the nearest taken off again as the next node.
    let stackedBefore = top
    while inner != 0 {
      let lane = inner.trailingZeroBitCount
      inner &= inner - 1
      let laneEntry = entry[lane]
      var i = top
      while i > stackedBefore && stack[i - 1].entry < laneEntry {
        stack[i] = stack[i - 1]
        i -= 1
      }
      stack[i] = StackEntry(node: WideNode.child(n, lane), entry: laneEntry)
      top += 1
    }
    if top > 0 {
      top -= 1
      (node, nodeEntry) = (stack[top].node, stack[top].entry)
    } else {
      (node, nodeEntry) = (-1, -.infinity)
      return leafLanes != 0
    }
    return true
  }

  /// Where node `node` of the tree at `nodes` lies.
  @inline(__always)
  func address(_ node: Int32, _ nodes: UnsafeRawPointer) -> UnsafeRawPointer {
    nodes + Int(node) * MemoryLayout<WideNode>.stride
  }
}
