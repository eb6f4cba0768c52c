import ARMath
import CMathShims
import CVectorKernels
import Dispatch
import Foundation

extension BoundingVolumeHierarchy {
  /// The nearest hit of `ray` with parameter in [tMin, tMax], or nil. Of triangles hit at the
  /// same parameter (a ray through a shared edge or vertex), the one with the lowest index.
  public func closestHit(_ ray: HitRay, tMin: Double = 0, tMax: Double = .infinity) -> MeshHit? {
    traverse(ray, tMin: tMin, tMax: tMax, anyHit: false)
  }

  /// Whether `ray` hits anything with parameter in [tMin, tMax] (stops at the first hit found,
  /// which need not be the nearest): occlusion tests.
  public func anyHit(_ ray: HitRay, tMin: Double = 0, tMax: Double = .infinity) -> MeshHit? {
    traverse(ray, tMin: tMin, tMax: tMax, anyHit: true)
  }

  /// Closest hits of many rays, on `threads` threads (default: all cores); results in order,
  /// the same as ``closestHit(_:tMin:tMax:)`` gives each, bit for bit. Faster per ray than
  /// calling that in a loop when the rays are many and scattered: each thread keeps several
  /// rays in flight, so their waits for memory overlap, and on a CPU with AVX2 they walk an
  /// 8-wide copy of the tree in a C kernel (made by the first batch query, and kept).
  public func closestHits(_ rays: [HitRay], threads: Int = ProcessInfo.processInfo.activeProcessorCount)
    -> [MeshHit?]
  {
    closestHits(rays, threads: threads, portable: false)
  }

  /// Closest hits of many rays; `portable`: by the SSE2 traversal even where the AVX2 kernel
  /// runs (tests compare the two).
  func closestHits(_ rays: [HitRay], threads: Int, portable: Bool) -> [MeshHit?] {
    // Written by the workers straight into uninitialised storage: zero-filling a million results
    // first was a serial pass over 40 MB, page faults included.
    [MeshHit?](unsafeUninitializedCapacity: rays.count) { output, initialized in
      closestHits(rays, into: output.baseAddress!, threads: threads, portable: portable)
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
  private func closestHits(
    _ rays: [HitRay], into output: UnsafeMutablePointer<MeshHit?>, threads: Int, portable: Bool = false
  ) {
    // Up to 4,096 rays a chunk, but at least eight chunks a thread, so that a batch of tens of
    // thousands still ends with every thread busy (five chunks of 4,096 for 20k rays left one
    // thread a chunk to finish alone).
    let chunk = max(256, min(4096, (rays.count + 8 * threads - 1) / (8 * max(1, threads))))
    let chunks = (rays.count + chunk - 1) / chunk
    let out = UnsafeSendableMutablePointer(output)
    let tree = portable ? nil : eightWideTree
    rays.withUnsafeBufferPointer { input in
      guard let first = input.baseAddress else { return }
      let inp = UnsafeSendablePointer(first)
      let work: @Sendable (Int) -> Void = { c in
        let range = (c * chunk)..<min(rays.count, (c + 1) * chunk)
        if let tree {
          self.closestHits(inp.pointer, range, into: out.pointer, tree: tree)
          return
        }
        switch self.leafTriangles {
        case .float(let records):
          records.withUnsafeBufferPointer {
            self.closestHits(inp.pointer, range, into: out.pointer, records: $0.baseAddress!)
          }
        case .double(let records):
          records.withUnsafeBufferPointer {
            self.closestHits(inp.pointer, range, into: out.pointer, records: $0.baseAddress!)
          }
        }
      }
      forEachBand(chunks, threads: threads, work)
    }
  }

  /// Closest hits of `rays[range]` into `output[range]`, ``RayTraversal/inFlight`` walks at a
  /// time, stepped in turn: while one waits for its next node, the others go on.
  private func closestHits<S: LeafScalar>(
    _ rays: UnsafePointer<HitRay>, _ range: Range<Int>, into output: UnsafeMutablePointer<MeshHit?>,
    records: UnsafePointer<S>
  ) {
    let slots = RayTraversal.inFlight
    withUnsafeTemporaryAllocation(of: StackEntry.self, capacity: slots * stackCapacity) { stacks in
      withUnsafeTemporaryAllocation(of: RayTraversal.self, capacity: slots) { walks in
        withUnsafeTemporaryAllocation(of: Int.self, capacity: slots) { rayOf in
          nodes.withUnsafeBytes { nodeBytes in
            let base = nodeBytes.baseAddress!
            var next = range.lowerBound, running = 0
            // Slot k walks ray rayOf[k], or none (-1). Starts the next ray in slot k, if any.
            func start(_ k: Int) -> Bool {
              guard next < range.upperBound else {
                rayOf[k] = -1
                return false
              }
              (walks.baseAddress! + k).initialize(
                to: RayTraversal(
                  rays[next], tMin: 0, tMax: .infinity, anyHit: false,
                  stack: stacks.baseAddress! + k * stackCapacity))
              rayOf[k] = next
              next += 1
              return true
            }
            for k in 0..<slots where start(k) { running += 1 }
            while running > 0 {
              for k in 0..<slots where rayOf[k] >= 0 {
                if walks[k].step(nodes: base, records: records) { continue }
                (output + rayOf[k]).initialize(to: walks[k].best)
                if !start(k) { running -= 1 }
              }
            }
          }
        }
      }
    }
  }

  /// Closest hits of `rays[range]` into `output[range]` by the AVX2 kernel over `tree`.
  private func closestHits(
    _ rays: UnsafePointer<HitRay>, _ range: Range<Int>, into output: UnsafeMutablePointer<MeshHit?>,
    tree: EightWideTree
  ) {
    withUnsafeTemporaryAllocation(of: arscene_ray_hit.self, capacity: range.count) { hits in
      withExtendedLifetime(tree.storage) {
        let nodes = UnsafeRawPointer(tree.storage.pointer)
        leafTriangles.withUnsafePackets { packets, doubles in
          let layout = MemoryLayout<HitRay>.self
          arscene_closest_hits_avx2(
            nodes.assumingMemoryBound(to: Float.self), packets, doubles ? 1 : 0,
            UnsafeRawPointer(rays + range.lowerBound).assumingMemoryBound(to: CChar.self), layout.stride,
            layout.offset(of: \.origin)!, layout.offset(of: \.direction)!, range.count, 0, .infinity,
            tree.stackCapacity, hits.baseAddress!)
        }
      }
      for (i, hit) in hits.enumerated() {
        (output + range.lowerBound + i).initialize(
          to: hit.triangle == Int.max ? nil : MeshHit(t: hit.t, triangle: hit.triangle, u: hit.u, v: hit.v))
      }
    }
  }

  /// The closest or any hit of one ray (``RayTraversal``, stepped to its end).
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
    // The stack lives on the machine stack (a large temporary allocation would go to the heap,
    // a malloc per ray): a visit pushes at most three nodes a level (``stackCapacity``).
    withUnsafeTemporaryAllocation(of: StackEntry.self, capacity: stackCapacity) { stack in
      nodes.withUnsafeBytes { nodeBytes in
        var walk = RayTraversal(ray, tMin: tMin, tMax: tMax, anyHit: anyHit, stack: stack.baseAddress!)
        while walk.step(nodes: nodeBytes.baseAddress!, records: records.baseAddress!) {}
        return walk.best
      }
    }
  }
}
