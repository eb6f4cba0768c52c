import ARMath
import CMathShims
import Dispatch
import Foundation

extension BoundingVolumeHierarchy {
  /// The nearest hit of `ray` with parameter in [tMin, tMax], or nil.
  public func closestHit(_ ray: HitRay, tMin: Double = 0, tMax: Double = .infinity) -> MeshHit? {
    traverse(ray, tMin: tMin, tMax: tMax, anyHit: false)
  }

  /// Whether `ray` hits anything with parameter in [tMin, tMax] (stops at the first hit found,
  /// which need not be the nearest): occlusion tests.
  public func anyHit(_ ray: HitRay, tMin: Double = 0, tMax: Double = .infinity) -> MeshHit? {
    traverse(ray, tMin: tMin, tMax: tMax, anyHit: true)
  }

  /// Closest hits of many rays, on `threads` threads (default: all cores); results in order.
  public func closestHits(_ rays: [HitRay], threads: Int = ProcessInfo.processInfo.activeProcessorCount)
    -> [MeshHit?]
  {
    // Written by the workers straight into uninitialised storage: zero-filling a million results
    // first was a serial pass over 40 MB, page faults included.
    [MeshHit?](unsafeUninitializedCapacity: rays.count) { output, initialized in
      closestHits(rays, into: output.baseAddress!, threads: threads)
      initialized = rays.count
    }
  }

  /// Closest hits of many rays into `results`, whose storage is reused when it already holds
  /// `rays.count` results (for callers that cast batch after batch).
  public func closestHits(
    _ rays: [HitRay], into results: inout [MeshHit?],
    threads: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    guard results.count == rays.count else {
      results = closestHits(rays, threads: threads)
      return
    }
    results.withUnsafeMutableBufferPointer { closestHits(rays, into: $0.baseAddress!, threads: threads) }
  }

  /// Writes the closest hit of `rays[i]` to `output[i]` (initialised or not: `MeshHit?` is
  /// trivial), in chunks shared by `threads` threads.
  private func closestHits(_ rays: [HitRay], into output: UnsafeMutablePointer<MeshHit?>, threads: Int) {
    let chunk = 4096
    let chunks = (rays.count + chunk - 1) / chunk
    let out = UnsafeSendableMutablePointer(output)
    rays.withUnsafeBufferPointer { input in
      guard let first = input.baseAddress else { return }
      let inp = UnsafeSendablePointer(first)
      let work: @Sendable (Int) -> Void = { c in
        for i in (c * chunk)..<min(rays.count, (c + 1) * chunk) {
          (out.pointer + i).initialize(to: self.closestHit(inp.pointer[i]))
        }
      }
      if threads <= 1 || chunks <= 1 {
        for c in 0..<chunks { work(c) }
      } else {
        DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
      }
    }
  }

  /// Stack-based traversal of the 4-wide tree: one visit tests a node's four boxes in `Float`
  /// (conservatively, ``WideBoxRay``), tests the triangles of the leaves it hits at once, goes
  /// on into the nearest inner child it hits and stacks the others, nearest on top. Stacked
  /// nodes carry their entry distance and are skipped when a nearer hit has been found since.
  @usableFromInline
  func traverse(_ ray: HitRay, tMin: Double, tMax: Double, anyHit: Bool) -> MeshHit? {
    switch leafTriangles {
    case .float(let records):
      records.withUnsafeBufferPointer { traverse(ray, tMin: tMin, tMax: tMax, anyHit: anyHit, records: $0) }
    case .double(let records):
      records.withUnsafeBufferPointer { traverse(ray, tMin: tMin, tMax: tMax, anyHit: anyHit, records: $0) }
    }
  }

  private func traverse<S: LeafScalar>(
    _ ray: HitRay, tMin: Double, tMax: Double, anyHit: Bool, records: UnsafeBufferPointer<S>
  ) -> MeshHit? {
    let watertight = WatertightRay(ray)
    let boxRay = WideBoxRay(ray)
    let near = boxRay.scaledBelow(tMin)
    var best: MeshHit? = nil
    var tFar = tMax
    var far = boxRay.scaledAbove(tMax)
    // The stack lives on the machine stack (a large temporary allocation would go to the heap,
    // a malloc per ray): a visit pushes at most three nodes a level (``stackCapacity``).
    return withUnsafeTemporaryAllocation(of: StackEntry.self, capacity: stackCapacity) { stack in
      nodes.withUnsafeBytes { nodeBytes in
        let base = nodeBytes.baseAddress!
        var top = 0
        var node: Int32 = 0
        while true {
          let n = base + Int(node) * MemoryLayout<WideNode>.stride
          let (entry, hits) = boxRay.test(n, near: near, far: far)
          // Lanes as bit sets, walked lowest bit first: a branch per lane on "leaf or inner"
          // was the costliest line of the traversal (mispredicted), more than any arithmetic.
          let leafLanes = WideNode.leafLanes(n)
          var leaves = hits & leafLanes, inner = hits & ~leafLanes
          // Incoherent rays wait on memory: ask for every leaf this visit tests and every child
          // it may enter next before using any of them.
          var lanes = leaves
          while lanes != 0 {
            let packet = UnsafeRawPointer(
              records.baseAddress! + LeafTriangles.packetLength
                * Int(~WideNode.child(n, lanes.trailingZeroBitCount)))
            for offset in stride(from: 0, to: LeafTriangles.packetBytes(S.self), by: 64) {
              arscene_prefetch(packet + offset)
            }
            arscene_prefetch(packet + (LeafTriangles.packetBytes(S.self) - 1))
            lanes &= lanes - 1
          }
          lanes = inner
          while lanes != 0 {
            let next =
              base + Int(WideNode.child(n, lanes.trailingZeroBitCount)) * MemoryLayout<WideNode>.stride
            arscene_prefetch(next)
            arscene_prefetch(next + 64)
            lanes &= lanes - 1
          }
          while leaves != 0 {
            // A leaf: test its triangles now, so the hits shorten the ray for the rest.
            let lane = leaves.trailingZeroBitCount
            leaves &= leaves - 1
            let packet = records.baseAddress! + LeafTriangles.packetLength * Int(~WideNode.child(n, lane))
            if let h = watertight.intersect(packet: packet, tMin: tMin, tMax: tFar) {
              best = MeshHit(
                t: h.t, triangle: packet[LeafTriangles.indexOffset + h.lane].triangleIndex, u: h.u, v: h.v)
              tFar = h.t
              far = boxRay.scaledAbove(tFar)
              if anyHit { return best }
            }
          }
          // Inner children stacked in order of entry, farthest at the bottom (insertion among
          // at most four).
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
          // Next: the nearest stacked node not beyond the best hit so far.
          let limit = far * WideBoxRay.widen
          var next: Int32 = -1
          while top > 0 {
            top -= 1
            if stack[top].entry <= limit {
              next = stack[top].node
              break
            }
          }
          if next < 0 { return best }
          node = next
        }
      }
    }
  }
}

/// A node waiting on the traversal stack, with the scaled distance at which the ray enters it.
@usableFromInline
struct StackEntry {
  @usableFromInline var node: Int32
  @usableFromInline var entry: Float
}
