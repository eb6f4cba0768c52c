import ARMath
import Dispatch

/// Top-down binned-SAH construction of ``BoundingVolumeHierarchy``'s 4-wide tree (Wald 2007),
/// made straight into ``WideNode``s as Embree makes its BVH4: a node's span is split by the best
/// of up to 16 centroid bins per axis, then the child with the largest surface area is split
/// again until the node has four children.
///
/// The triangles (``BuildTriangle``: a `Float` box rounded outwards, 32 bytes) are partitioned in
/// place, and a partition gathers both sides' bounds as it goes, so a split costs two passes in
/// memory order: binning and partitioning. Nodes over more than ``parallelSpan`` triangles (the
/// top nodes) are built first, a level at a time: the root's span binned in parts on all cores,
/// the nodes of each further level side by side. The smaller spans below them are tasks, each
/// built by one thread into a node array of its own, and the arrays are joined after the top
/// nodes. Which spans are top nodes or tasks depends on the triangles alone,
/// so the tree is the same bytes on any number of cores. Below ``maxSAHDepth`` binary splits
/// (only reachable with adversarial input) spans split at their middle, which bounds the depth
/// the traversal stack must hold.
enum BVHBuilder {
  static let maxLeafSize = 4
  static let maxSAHDepth = 48
  /// Spans of more triangles than this are top nodes, binned in parallel parts.
  static let parallelSpan = 8192

  /// The tree over the triangles (three indices each into `positions`), root first; its depth in
  /// wide levels; the triangles in leaf order (a leaf lane is `~first` with `count` triangles
  /// of it); and the bounds of the whole mesh.
  static func build(positions: [SIMD3<Double>], indices: [Int])
    -> (nodes: [WideNode], depth: Int, order: [Int32], bounds: AxisAlignedBox<Double>)
  {
    let count = indices.count / 3
    let storage = UnsafeMutablePointer<BuildTriangle>.allocate(capacity: count)
    defer { storage.deallocate() }
    let (rootBounds, bounds) = prepare(positions, indices, into: storage, count: count)
    let triangles = Triangles(storage)
    let root = BuildSpan(start: 0, end: count, bounds: rootBounds, depth: 0)
    var top = TopNodes()
    if count > parallelSpan {
      top = triangles.topNodes(root)
    } else {
      top.tasks.append(Task(span: root, node: -1, lane: 0, level: 0))
    }
    let subtrees = triangles.subtrees(top.tasks)
    let nodes = join(top, subtrees)
    let order = [Int32](unsafeUninitializedCapacity: count) { out, initialized in
      for i in 0..<count { out[i] = storage[i].index }
      initialized = count
    }
    let depth = zip(top.tasks, subtrees).reduce(top.levels) { max($0, $1.0.level + $1.1.height) }
    return (nodes, depth, order, bounds)
  }

  /// The nodes over spans of more than ``parallelSpan`` triangles, a level after another from
  /// the root, and the smaller spans below them, each built by one thread.
  fileprivate struct TopNodes {
    var nodes: [WideNode] = []
    var tasks: [Task] = []
    /// Wide levels the top nodes span.
    var levels = 0
  }

  /// A span built by one thread, and the lane of the top node (at wide level `level`) that
  /// refers to it.
  fileprivate struct Task: Sendable {
    var span: BuildSpan
    var node: Int
    var lane: Int
    var level: Int
  }

  /// The top nodes, then each task's subtree in task order, as one array: child indices made
  /// absolute, tasks' lanes pointed at their subtrees. Subtrees are copied in parallel.
  private static func join(_ top: TopNodes, _ subtrees: [(nodes: [WideNode], height: Int)]) -> [WideNode] {
    var starts: [Int] = []
    var total = top.nodes.count
    for subtree in subtrees {
      starts.append(total)
      total += subtree.nodes.count
    }
    let offsets = starts
    return [WideNode](unsafeUninitializedCapacity: total) { out, initialized in
      let base = out.baseAddress!
      for (k, node) in top.nodes.enumerated() { base[k] = node }
      for (task, offset) in zip(top.tasks, offsets) where task.node >= 0 {
        base[task.node].child[task.lane] = Int32(offset)
      }
      let target = UnsafeSendableMutablePointer(base)
      let copy: @Sendable (Int) -> Void = { t in
        let shift = SIMD4(repeating: Int32(offsets[t]))
        for (k, var node) in subtrees[t].nodes.enumerated() {
          node.child.replace(with: node.child &+ shift, where: node.child .>= 0)
          target.pointer[offsets[t] + k] = node
        }
      }
      if subtrees.count == 1 {
        copy(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: subtrees.count, execute: copy)
      }
      initialized = total
    }
  }

  /// Fills `triangles` with the mesh's triangles, in parts on all cores; returns their bounds
  /// and the mesh's exact bounds.
  private static func prepare(
    _ positions: [SIMD3<Double>], _ indices: [Int], into triangles: UnsafeMutablePointer<BuildTriangle>,
    count: Int
  ) -> (BuildBounds, AxisAlignedBox<Double>) {
    let parts = max(1, min(16, count / parallelSpan))
    var partBounds = [BuildBounds](repeating: BuildBounds(), count: parts)
    var partLower = [SIMD3<Double>](repeating: SIMD3(repeating: .infinity), count: parts)
    var partUpper = [SIMD3<Double>](repeating: SIMD3(repeating: -.infinity), count: parts)
    positions.withUnsafeBufferPointer { positions in
      indices.withUnsafeBufferPointer { indices in
        let p = UnsafeSendableBuffer(positions), index = UnsafeSendableBuffer(indices)
        let out = UnsafeSendableMutablePointer(triangles)
        partBounds.withUnsafeMutableBufferPointer { partBounds in
          partLower.withUnsafeMutableBufferPointer { partLower in
            partUpper.withUnsafeMutableBufferPointer { partUpper in
              let b = UnsafeSendableMutablePointer(partBounds.baseAddress!)
              let lo = UnsafeSendableMutablePointer(partLower.baseAddress!)
              let hi = UnsafeSendableMutablePointer(partUpper.baseAddress!)
              let work: @Sendable (Int) -> Void = { part in
                var bounds = BuildBounds()
                var lower = SIMD3<Double>(repeating: .infinity), upper = SIMD3<Double>(repeating: -.infinity)
                for t in (part * count / parts)..<((part + 1) * count / parts) {
                  let a = p.buffer[index.buffer[3 * t]], c = p.buffer[index.buffer[3 * t + 1]]
                  let d = p.buffer[index.buffer[3 * t + 2]]
                  let boxLower = LaneMath.min(LaneMath.min(a, c), d),
                    boxUpper = LaneMath.max(LaneMath.max(a, c), d)
                  let triangle = BuildTriangle(
                    index: Int32(truncatingIfNeeded: t), lower: boxLower, upper: boxUpper)
                  out.pointer[t] = triangle
                  bounds.add(triangle, centre: triangle.doubledCentre)
                  lower = LaneMath.min(lower, boxLower)
                  upper = LaneMath.max(upper, boxUpper)
                }
                (b.pointer[part], lo.pointer[part], hi.pointer[part]) = (bounds, lower, upper)
              }
              if parts == 1 {
                work(0)
              } else {
                DispatchQueue.concurrentPerform(iterations: parts, execute: work)
              }
            }
          }
        }
      }
    }
    var bounds = BuildBounds()
    var lower = SIMD3<Double>(repeating: .infinity), upper = SIMD3<Double>(repeating: -.infinity)
    for part in 0..<parts {
      bounds.add(partBounds[part])
      lower = LaneMath.min(lower, partLower[part])
      upper = LaneMath.max(upper, partUpper[part])
    }
    return (bounds, AxisAlignedBox(min: lower, max: upper))
  }

  /// The build triangles, shared by the threads of a build; each thread moves only the triangles
  /// of its own spans.
  fileprivate struct Triangles: @unchecked Sendable {
    let base: UnsafeMutablePointer<BuildTriangle>
    /// Whether spans of more than ``parallelSpan`` triangles are binned in parallel parts: only
    /// while one thread splits (the root), not when sibling nodes are split side by side.
    var binsInParallel = false
    init(_ base: UnsafeMutablePointer<BuildTriangle>) { self.base = base }
  }
}

extension BVHBuilder.Triangles {
  /// The top nodes over `root` (more than ``BVHBuilder/parallelSpan`` triangles) and the tasks
  /// below them. Each level's nodes are split side by side, one thread each, then numbered in
  /// order, so the numbering does not depend on which thread finished first.
  fileprivate func topNodes(_ root: BuildSpan) -> BVHBuilder.TopNodes {
    var top = BVHBuilder.TopNodes()
    var level: [(span: BuildSpan, parent: Int, lane: Int)] = [(root, -1, 0)]
    while !level.isEmpty {
      top.levels += 1
      let spans = level.map(\.span)
      let results = Slots<(FourSpans, Int)>(count: spans.count)
      if spans.count == 1 {
        var splitter = self
        splitter.binsInParallel = true
        results.set(0, splitter.children(of: spans[0], bins: SAHBins()))
      } else {
        DispatchQueue.concurrentPerform(iterations: spans.count) { k in
          results.set(k, children(of: spans[k], bins: SAHBins()))
        }
      }
      var next: [(span: BuildSpan, parent: Int, lane: Int)] = []
      for (entry, (lanes, laneCount)) in zip(level, results.values) {
        let position = top.nodes.count
        if entry.parent >= 0 { top.nodes[entry.parent].child[entry.lane] = Int32(position) }
        var node = WideNode()
        for lane in 0..<laneCount {
          setLane(lane, of: &node, to: lanes[lane])
          if lanes[lane].count > BVHBuilder.parallelSpan {
            next.append((lanes[lane], position, lane))
          } else if lanes[lane].count > BVHBuilder.maxLeafSize {
            top.tasks.append(
              BVHBuilder.Task(span: lanes[lane], node: position, lane: lane, level: top.levels))
          }
        }
        top.nodes.append(node)
      }
      level = next
    }
    return top
  }

  /// Each task's subtree (child indices relative to its own array) and height in wide levels,
  /// built on all cores, largest first.
  fileprivate func subtrees(_ tasks: [BVHBuilder.Task]) -> [(nodes: [WideNode], height: Int)] {
    let results = Slots<(nodes: [WideNode], height: Int)>(count: tasks.count)
    let schedule = tasks.indices.sorted { tasks[$0].span.count > tasks[$1].span.count }
    let build: @Sendable (Int) -> Void = { k in
      let task = tasks[schedule[k]]
      var nodes: [WideNode] = []
      nodes.reserveCapacity(task.span.count / 2 + 1)
      let height = emit(task.span, into: &nodes, bins: SAHBins()).height
      results.set(schedule[k], (nodes, height))
    }
    if tasks.count == 1 {
      build(0)
    } else {
      DispatchQueue.concurrentPerform(iterations: tasks.count, execute: build)
    }
    return results.values
  }

  /// Appends the wide node over `span` and its subtree to `nodes`, depth first; returns its
  /// index and the subtree's height in wide levels.
  private func emit(_ span: BuildSpan, into nodes: inout [WideNode], bins: SAHBins) -> (
    index: Int32, height: Int
  ) {
    let (lanes, laneCount) = children(of: span, bins: bins)
    let position = nodes.count
    nodes.append(WideNode())
    var node = WideNode()
    var height = 1
    for lane in 0..<laneCount {
      setLane(lane, of: &node, to: lanes[lane])
      if lanes[lane].count > BVHBuilder.maxLeafSize {
        let subtree = emit(lanes[lane], into: &nodes, bins: bins)
        node.child[lane] = subtree.index
        height = max(height, subtree.height + 1)
      }
    }
    nodes[position] = node
    return (Int32(position), height)
  }

  /// Lane `lane` of `node` holding `span`'s box, and its triangles when it is a leaf.
  private func setLane(_ lane: Int, of node: inout WideNode, to span: BuildSpan) {
    let bounds = span.bounds
    node.setBox(
      lane, lower: SIMD3(bounds.lower.x, bounds.lower.y, bounds.lower.z),
      upper: SIMD3(bounds.upper.x, bounds.upper.y, bounds.upper.z))
    if span.count <= BVHBuilder.maxLeafSize {
      node.child[lane] = ~Int32(span.start)
      node.count[lane] = Int32(span.count)
    }
  }

  /// The up to four children of a wide node over `span`: `span` split in two, then the child
  /// with the largest surface area split again while it has more than a leaf's triangles (the
  /// one most likely to be entered; Embree and Wald et al. open BVH4 nodes so). Binned with
  /// `bins`, or in parallel parts for a span of more than ``BVHBuilder/parallelSpan`` triangles.
  private func children(of span: BuildSpan, bins: SAHBins) -> (FourSpans, Int) {
    var lanes = FourSpans(repeating: span)
    var count = 1
    while count < 4 {
      var open = -1
      var largest: Float = -1
      for lane in 0..<count where lanes[lane].count > BVHBuilder.maxLeafSize {
        let area = lanes[lane].bounds.halfArea
        if area > largest || open < 0 { (open, largest) = (lane, area) }
      }
      guard open >= 0 else { break }
      let (left, right) = split(lanes[open], bins: bins)
      lanes[open] = lanes[count - 1]
      lanes[count - 1] = left
      lanes[count] = right
      count += 1
    }
    return (lanes, count)
  }

  /// Splits `span` in two, in place: at its best SAH bin, or at its middle when no axis can be
  /// split (every centre the same) or ``BVHBuilder/maxSAHDepth`` splits lie above it.
  private func split(_ span: BuildSpan, bins: SAHBins) -> (BuildSpan, BuildSpan) {
    let mapping = BinMapping(span.bounds, triangles: span.count)
    if span.depth < BVHBuilder.maxSAHDepth, let best = bestSplit(span, mapping, bins: bins) {
      return partition(span, mapping, axis: best.axis, bin: best.bin)
    }
    let middle = (span.start + span.end) / 2
    return (
      BuildSpan(start: span.start, end: middle, bounds: bounds(span.start..<middle), depth: span.depth + 1),
      BuildSpan(start: middle, end: span.end, bounds: bounds(middle..<span.end), depth: span.depth + 1)
    )
  }

  private func bestSplit(_ span: BuildSpan, _ mapping: BinMapping, bins: SAHBins) -> (axis: Int, bin: Int)? {
    guard mapping.canSplit(along: 0) || mapping.canSplit(along: 1) || mapping.canSplit(along: 2) else {
      return nil
    }
    if !binsInParallel || span.count <= BVHBuilder.parallelSpan {
      bins.clear(mapping.count)
      bins.add(base, span.start..<span.end, mapping)
      return bins.bestSplit(mapping, total: span.count)
    }
    // A large span: binned in parts on all cores, then summed.
    let parts = min(16, span.count / (BVHBuilder.parallelSpan / 2))
    let partBins = (0..<parts).map { _ in SAHBins() }
    let base = UnsafeSendablePointer(UnsafePointer(self.base))
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let range = (span.start + part * span.count / parts)..<(span.start + (part + 1) * span.count / parts)
      partBins[part].add(base.pointer, range, mapping)
    }
    for part in 1..<parts { partBins[0].add(partBins[part], mapping) }
    return partBins[0].bestSplit(mapping, total: span.count)
  }

  /// Moves the triangles of `span` whose bin on `axis` is below `bin` to its front and the
  /// others behind them, gathering both sides' bounds on the way.
  private func partition(_ span: BuildSpan, _ mapping: BinMapping, axis: Int, bin: Int) -> (
    BuildSpan, BuildSpan
  ) {
    // A centre's bin is below `bin` exactly when its unrounded position is.
    let threshold = SIMD4(repeating: Float(bin))
    let axisBit = 1 << axis
    var left = BuildBounds(), right = BuildBounds()
    var i = span.start, j = span.end
    let p = base
    while true {
      while i < j {
        let centre = p[i].doubledCentre
        if LaneMath.atMost(threshold, mapping.position(centre)) & axisBit != 0 { break }
        left.add(p[i], centre: centre)
        i += 1
      }
      while i < j {
        let centre = p[j - 1].doubledCentre
        if LaneMath.atMost(threshold, mapping.position(centre)) & axisBit == 0 { break }
        right.add(p[j - 1], centre: centre)
        j -= 1
      }
      guard i < j else { break }
      // p[i] belongs right and p[j - 1] left.
      p.swapAt(i, j - 1)
      left.add(p[i], centre: p[i].doubledCentre)
      right.add(p[j - 1], centre: p[j - 1].doubledCentre)
      i += 1
      j -= 1
    }
    return (
      BuildSpan(start: span.start, end: i, bounds: left, depth: span.depth + 1),
      BuildSpan(start: i, end: span.end, bounds: right, depth: span.depth + 1)
    )
  }

  private func bounds(_ range: Range<Int>) -> BuildBounds {
    var bounds = BuildBounds()
    for i in range { bounds.add(base[i], centre: base[i].doubledCentre) }
    return bounds
  }
}

extension UnsafeMutablePointer {
  fileprivate func swapAt(_ i: Int, _ j: Int) {
    let t = self[i]
    self[i] = self[j]
    self[j] = t
  }
}
