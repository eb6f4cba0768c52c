import ARMath
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
    var results = [MeshHit?](repeating: nil, count: rays.count)
    let chunk = 4096
    let chunks = (rays.count + chunk - 1) / chunk
    results.withUnsafeMutableBufferPointer { output in
      let out = UnsafeSendableMutablePointer(output.baseAddress!)
      rays.withUnsafeBufferPointer { input in
        let inp = UnsafeSendablePointer(input.baseAddress!)
        let work: @Sendable (Int) -> Void = { c in
          for i in (c * chunk)..<min(rays.count, (c + 1) * chunk) {
            out.pointer[i] = self.closestHit(inp.pointer[i])
          }
        }
        if threads <= 1 || chunks <= 1 {
          for c in 0..<chunks { work(c) }
        } else {
          DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
        }
      }
    }
    return results
  }

  /// Stack-based traversal, nearer child first; the box test is Ize's robust slab test (the far
  /// distance widened by 2γ₃, "Robust BVH Ray Traversal", JCGT 2013), so rounding never culls a
  /// box the ray touches. Pushed nodes carry their entry distance and are skipped when a nearer
  /// hit has been found since.
  @usableFromInline
  func traverse(_ ray: HitRay, tMin: Double, tMax: Double, anyHit: Bool) -> MeshHit? {
    let watertight = WatertightRay(ray)
    let o = ray.origin
    // Reciprocal direction; a zero component becomes a huge finite number, so 0·∞ never makes NaN.
    func reciprocal(_ d: Double) -> Double {
      d == 0 ? (d.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) : 1 / d
    }
    let ix = SIMD2(repeating: reciprocal(ray.direction.x)), iy = SIMD2(repeating: reciprocal(ray.direction.y))
    let iz = SIMD2(repeating: reciprocal(ray.direction.z))
    let ox = SIMD2(repeating: o.x), oy = SIMD2(repeating: o.y), oz = SIMD2(repeating: o.z)
    let lowest = SIMD2(repeating: tMin)
    let widen = 1 + 2 * (3 * Double.ulpOfOne / 2) / (1 - 3 * Double.ulpOfOne / 2)

    var best: MeshHit? = nil
    var tFar = tMax
    // The stack lives on the machine stack; the builder caps the depth (``BVHBuilder/maxDepth``).
    return withUnsafeTemporaryAllocation(
      of: (node: Int32, near: Double).self, capacity: BVHBuilder.maxDepth + 2
    ) {
      stack in
      nodes.withUnsafeBufferPointer { nodes in
        packedVertices.withUnsafeBufferPointer { packed in
          var top = 0
          var node: Int32 = 0
          while true {
            let n = nodes[Int(node)]
            // Both children's slabs at once (Float boxes widen to Double exactly).
            let tx0 = (SIMD2<Double>(n.minX) - ox) * ix, tx1 = (SIMD2<Double>(n.maxX) - ox) * ix
            let ty0 = (SIMD2<Double>(n.minY) - oy) * iy, ty1 = (SIMD2<Double>(n.maxY) - oy) * iy
            let tz0 = (SIMD2<Double>(n.minZ) - oz) * iz, tz1 = (SIMD2<Double>(n.maxZ) - oz) * iz
            let near = lanesMax(
              lanesMax(lanesMin(tx0, tx1), lanesMin(ty0, ty1)), lanesMax(lanesMin(tz0, tz1), lowest))
            let far =
              lanesMin(
                lanesMin(lanesMax(tx0, tx1), lanesMax(ty0, ty1)),
                lanesMin(lanesMax(tz0, tz1), SIMD2(repeating: tFar))) * widen
            let hitLeft = near.x <= far.x, hitRight = near.y <= far.y

            // Up to two children to visit, nearer first.
            var first = (child: n.left, count: n.leftCount, near: near.x)
            var second = (child: n.right, count: n.rightCount, near: near.y)
            var visits = 0
            if hitLeft && hitRight {
              visits = 2
              if second.near < first.near { swap(&first, &second) }
            } else if hitLeft {
              visits = 1
            } else if hitRight {
              visits = 1
              first = second
            }
            var descend: Int32 = -1
            for visit in 0..<visits {
              let entry = visit == 0 ? first : second
              if entry.child < 0 {
                // A leaf: test its triangles.
                let start = Int(~entry.child)
                for k in start..<(start + Int(entry.count)) {
                  let p = packed.baseAddress! + 9 * k
                  let a = SIMD3(p[0], p[1], p[2]), b = SIMD3(p[3], p[4], p[5]), c = SIMD3(p[6], p[7], p[8])
                  if let h = watertight.intersect(a, b, c, tMin: tMin, tMax: tFar) {
                    best = MeshHit(t: h.t, triangle: Int(originalIndex[k]), u: h.u, v: h.v)
                    tFar = h.t
                    if anyHit { return best }
                  }
                }
              } else if descend < 0 {
                descend = entry.child
              } else {
                stack[top] = (entry.child, entry.near)
                top += 1
              }
            }
            if descend >= 0 {
              node = descend
              continue
            }
            // Pop the next node still nearer than the best hit so far.
            while top > 0 {
              top -= 1
              if stack[top].near <= tFar * widen {
                node = stack[top].node
                descend = node
                break
              }
            }
            if descend < 0 { return best }
          }
        }
      }
    }
  }
}
