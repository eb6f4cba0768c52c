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
  public func closestHits(_ rays: [HitRay], threads: Int = ProcessInfo.activeProcessorCountForHits)
    -> [MeshHit?]
  {
    var results = [MeshHit?](repeating: nil, count: rays.count)
    let chunk = 4096
    let chunks = (rays.count + chunk - 1) / chunk
    results.withUnsafeMutableBufferPointer { output in
      let out = UnsafeMutableSendablePointer(output.baseAddress!)
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
  /// box the ray touches.
  @usableFromInline
  func traverse(_ ray: HitRay, tMin: Double, tMax: Double, anyHit: Bool) -> MeshHit? {
    let watertight = WatertightRay(ray)
    let o = ray.origin
    // Reciprocal direction; a zero component becomes a huge finite number, so 0·∞ never makes NaN.
    func reciprocal(_ d: Double) -> Double {
      d == 0 ? (d.sign == .minus ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude) : 1 / d
    }
    let inv = SIMD3(reciprocal(ray.direction.x), reciprocal(ray.direction.y), reciprocal(ray.direction.z))
    let ox = SIMD2(repeating: o.x), oy = SIMD2(repeating: o.y), oz = SIMD2(repeating: o.z)
    let ix = SIMD2(repeating: inv.x), iy = SIMD2(repeating: inv.y), iz = SIMD2(repeating: inv.z)
    let widen = 1 + 2 * (3 * Double.ulpOfOne / 2) / (1 - 3 * Double.ulpOfOne / 2)

    var best: MeshHit? = nil
    var tFarLimit = tMax
    // Explicit stack of (node, entry distance); depth is bounded by the build (≤ 64 for any
    // realistic mesh; the array grows if not).
    var stack = [Int32](repeating: 0, count: 64)
    var top = 0
    var node: Int32 = 0
    return nodes.withUnsafeBufferPointer { nodes in
      a.withUnsafeBufferPointer { va in
        b.withUnsafeBufferPointer { vb in
          c.withUnsafeBufferPointer { vc in
            while true {
              let n = nodes[Int(node)]
              // Both children's slabs at once.
              var tx0 = (n.minX - ox) * ix, tx1 = (n.maxX - ox) * ix
              if inv.x < 0 { swap(&tx0, &tx1) }
              var ty0 = (n.minY - oy) * iy, ty1 = (n.maxY - oy) * iy
              if inv.y < 0 { swap(&ty0, &ty1) }
              var tz0 = (n.minZ - oz) * iz, tz1 = (n.maxZ - oz) * iz
              if inv.z < 0 { swap(&tz0, &tz1) }
              let near = pointwiseMax(pointwiseMax(tx0, ty0), pointwiseMax(tz0, SIMD2(repeating: tMin)))
              let far =
                pointwiseMin(pointwiseMin(tx1, ty1), pointwiseMin(tz1, SIMD2(repeating: tFarLimit))) * widen
              let hitLeft = near[0] <= far[0], hitRight = near[1] <= far[1]

              // Up to two children to visit, nearer first.
              var first = (child: n.left, count: n.leftCount), second = (child: n.right, count: n.rightCount)
              var visits = 0
              if hitLeft && hitRight {
                visits = 2
                if near[1] < near[0] { swap(&first, &second) }
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
                    if let h = watertight.intersect(va[k], vb[k], vc[k], tMin: tMin, tMax: tFarLimit) {
                      best = MeshHit(t: h.t, triangle: Int(originalIndex[k]), u: h.u, v: h.v)
                      tFarLimit = h.t
                      if anyHit { return best }
                    }
                  }
                } else if descend < 0 {
                  descend = entry.child
                } else {
                  if top == stack.count { stack.append(0) }
                  stack[top] = entry.child
                  top += 1
                }
              }
              if descend >= 0 {
                node = descend
              } else if top > 0 {
                top -= 1
                node = stack[top]
              } else {
                return best
              }
            }
          }
        }
      }
    }
  }
}

extension ProcessInfo {
  /// The number of cores batch queries use by default.
  public static var activeProcessorCountForHits: Int { ProcessInfo.processInfo.activeProcessorCount }
}

/// A pointer that may cross into concurrent work items (each writes disjoint elements).
struct UnsafeMutableSendablePointer<T>: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<T>
  init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// A read-only pointer shared by concurrent work items.
struct UnsafeSendablePointer<T>: @unchecked Sendable {
  let pointer: UnsafePointer<T>
  init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}
