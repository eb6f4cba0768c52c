import ARMath
import RealModule

/// Multi-plane extraction from a point cloud, as ARKit's plane detection does from its feature
/// points: adaptive RANSAC for the largest plane, a least-squares refit on its inliers (twice,
/// re-gathering inliers in between), keep it if it is a surface and not a band through clutter
/// (its support well above what the clutter around it would put there, its residuals a
/// surface's), remove its points, repeat; then merge planes that are the same surface, and
/// describe each (classification against gravity, convex hull, smallest rectangle).
/// Deterministic for a given seed.
public struct PlaneDetector: Sendable {
  /// Inlier distance, metres: about 3σ of the depth noise (default 1 cm for phone depth).
  public var threshold: Double
  /// The up direction (opposite to gravity), unit.
  public var up: SIMD3<Double>
  /// Smallest plane worth reporting, in points.
  public var minimumInliers: Int
  /// Points with a lower confidence are ignored (when the cloud has confidences).
  public var minimumConfidence: Double
  /// RANSAC's probability of having drawn an all-inlier sample.
  public var confidence = 0.999
  /// Upper bound on RANSAC samples per plane.
  public var maxIterations = 3000
  /// The seed of the sampling.
  public var seed: UInt64
  /// Candidates in a row found to be bands through clutter (see ``SurfaceEvidence``) after
  /// which the search stops: RANSAC finds the most populous band first, so once several are
  /// clutter, the rest is too.
  static let bandsBeforeGivingUp = 3

  /// A detector.
  public init(
    threshold: Double = 0.01, up: SIMD3<Double> = [0, 1, 0], minimumInliers: Int = 100,
    minimumConfidence: Double = 0,
    seed: UInt64 = 1
  ) throws(PoseError) {
    guard threshold > 0, threshold.isFinite else {
      throw .invalidInput(field: "threshold", reason: "must be a positive number of metres")
    }
    guard up.x.isFinite, up.y.isFinite, up.z.isFinite, up.length > 0 else {
      throw .invalidInput(field: "gravity", reason: "must be a non-zero, finite direction")
    }
    self.threshold = threshold
    self.up = up.normalized()
    self.minimumInliers = max(3, minimumInliers)
    self.minimumConfidence = minimumConfidence
    self.seed = seed
  }

  /// The planes in `cloud`, largest first. An empty result means "no plane", not an error.
  /// - Throws: ``PoseError/invalidInput(field:reason:)`` for non-finite points.
  public func detect(_ cloud: PointCloud) throws(PoseError) -> [DetectedPlane] {
    for (i, p) in cloud.points.enumerated() where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
      throw .invalidInput(field: "points[\(i)]", reason: "not finite")
    }
    var remaining = cloud.points.indices.filter {
      cloud.confidences.isEmpty || cloud.confidences[$0] >= minimumConfidence
    }
    var rng = SplitMix64(seed: seed)
    var found: [(normal: SIMD3<Double>, offset: Double, inliers: [Int])] = []
    // Bands through clutter are set aside; after a few in a row, what is left is clutter.
    var bandsInARow = 0
    while remaining.count >= minimumInliers, bandsInARow < Self.bandsBeforeGivingUp {
      guard let plane = ransac(cloud.points, remaining, &rng), plane.inliers.count >= minimumInliers else {
        break
      }
      let isSurface = SurfaceEvidence(threshold: threshold).isSurface(
        normal: plane.normal, offset: plane.offset, inliers: plane.inliers, candidates: remaining,
        points: cloud.points)
      if isSurface {
        found.append(plane)
        bandsInARow = 0
      } else {
        bandsInARow += 1
      }
      let taken = Set(plane.inliers)
      remaining.removeAll { taken.contains($0) }
    }
    return merge(found, cloud.points).map { describe($0.inliers, cloud.points) }.sorted {
      $0.inliers.count > $1.inliers.count
    }
  }

  /// The largest plane alone (one RANSAC search, refits and the connected patch), as Open3D's
  /// `segment_plane` finds one; nil when there is none of ``minimumInliers`` points.
  public func largestPlane(_ cloud: PointCloud) throws(PoseError) -> DetectedPlane? {
    for (i, p) in cloud.points.enumerated() where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
      throw .invalidInput(field: "points[\(i)]", reason: "not finite")
    }
    var rng = SplitMix64(seed: seed)
    let all = Array(cloud.points.indices)
    guard let plane = ransac(cloud.points, all, &rng), plane.inliers.count >= minimumInliers,
      SurfaceEvidence(threshold: threshold).isSurface(
        normal: plane.normal, offset: plane.offset, inliers: plane.inliers, candidates: all,
        points: cloud.points)
    else { return nil }
    return describe(plane.inliers, cloud.points)
  }

  /// The largest plane among `indices` by adaptive RANSAC, refit by least squares.
  func ransac(_ points: [SIMD3<Double>], _ indices: [Int], _ rng: inout SplitMix64)
    -> (normal: SIMD3<Double>, offset: Double, inliers: [Int])?
  {
    let n = indices.count
    guard n >= 3 else { return nil }
    // Hypotheses are scored on a fixed random subset (an unbiased estimate of the inlier
    // fraction at a fraction of the cost); the few best are then counted on all points.
    let subsetSize = min(n, 2000)
    let subset = (0..<subsetSize).map { _ in points[indices[rng.below(n)]] }
    var top: [(count: Int, normal: SIMD3<Double>, offset: Double)] = []
    var needed = maxIterations
    var iteration = 0
    let grid = NeighbourGrid(points, indices, cellSize: cellSize(points, indices))
    while iteration < min(needed, maxIterations) {
      iteration += 1
      // NAPSAC: the second and third points come from the first one's neighbourhood, where they
      // likely lie on the same surface; a uniform draw would need three inliers by chance.
      let first = indices[rng.below(n)]
      let a = points[first], b = points[grid.neighbour(of: first, &rng)],
        c = points[grid.neighbour(of: first, &rng)]
      let normal = (b - a).cross(c - a)
      let length = normal.length
      guard length > 1e-12 else { continue }
      let unit = normal / length, d = unit.dot(a)
      var count = 0
      for p in subset where abs(unit.dot(p) - d) <= threshold { count += 1 }
      if top.count < 5 || count > top[top.count - 1].count {
        top.append((count, unit, d))
        top.sort { $0.count > $1.count }
        if top.count > 5 { top.removeLast() }
        // Adaptive: samples needed so an all-inlier draw happened with the set confidence (the
        // neighbours are taken as inliers with probability ½ each given the first is: cautious).
        let w = Double(top[0].count) / Double(subsetSize)
        let p = w * 0.25
        needed =
          p >= 1
          ? 1 : (p <= 0 ? maxIterations : Int((Double.log(1 - confidence) / Double.log(1 - p)).rounded(.up)))
      }
    }
    var best: (SIMD3<Double>, Double)? = nil
    var bestCount = 0
    for hypothesis in top {
      var count = 0
      for i in indices where abs(hypothesis.normal.dot(points[i]) - hypothesis.offset) <= threshold {
        count += 1
      }
      if count > bestCount {
        bestCount = count
        best = (hypothesis.normal, hypothesis.offset)
      }
    }
    guard var (normal, offset) = best else { return nil }
    var inliers: [Int] = []
    for _ in 0..<2 {  // refit, re-gather, refit
      inliers = indices.filter { abs(normal.dot(points[$0]) - offset) <= threshold }
      guard let fit = PlaneGeometry.fit(points, inliers) else { return nil }
      normal = fit.normal
      offset = normal.dot(fit.centroid)
    }
    // The surface is the largest connected patch. Fitted on it alone and gathered again: clutter
    // in the band across the whole scene can tilt the fits above, so that the band holds only
    // part of the surface.
    for _ in 0..<2 {
      inliers = largestComponent(
        indices.filter { abs(normal.dot(points[$0]) - offset) <= threshold }, normal, points)
      guard let fit = PlaneGeometry.fit(points, inliers) else { return nil }
      normal = fit.normal
      offset = normal.dot(fit.centroid)
    }
    return (normal, offset, inliers)
  }

  /// The largest connected patch of a plane's inliers: a surface is contiguous, while outliers
  /// that happen to lie in its band are scattered over the whole scene. Cells of the inliers'
  /// ``PlaneFootprint`` are joined to their 4 neighbours.
  func largestComponent(_ inliers: [Int], _ normal: SIMD3<Double>, _ points: [SIMD3<Double>]) -> [Int] {
    guard inliers.count >= 3 else { return inliers }
    let footprint = PlaneFootprint(inliers, normal: normal, points: points, threshold: threshold)
    let cells = SortedCells(Array(inliers.indices)) { k in footprint.key(points[inliers[k]]) }
    // Connected cells (4-neighbourhood) by a flood fill over cell indices, first cells first.
    let step = UInt64(1) << 21  // one cell in y; one in x is step << 21
    var seen = [Bool](repeating: false, count: cells.cellCount)
    var best: [Int] = []
    var stack: [Int] = []
    for start in 0..<cells.cellCount where !seen[start] {
      var component: [Int] = []
      stack.append(start)
      seen[start] = true
      while let c = stack.popLast() {
        component += cells.items(ofCell: c)
        let key = cells.keys[c]
        for next in [key &+ (step << 21), key &- (step << 21), key &+ step, key &- step] {
          if let n = cells.cell(next), !seen[n] {
            seen[n] = true
            stack.append(n)
          }
        }
      }
      if component.count > best.count { best = component }
    }
    return best.map { inliers[$0] }.sorted()
  }

  /// The neighbourhood size for NAPSAC sampling: a twentieth of the cloud's extent, at least
  /// 20 thresholds.
  func cellSize(_ points: [SIMD3<Double>], _ indices: [Int]) -> Double {
    var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
    for i in indices {
      lo = pointwiseMin(lo, points[i])
      hi = pointwiseMax(hi, points[i])
    }
    return max(20 * threshold, (hi - lo).length / 20)
  }

  /// Planes whose normals agree within 2°, whose offsets agree within the threshold, and whose
  /// points form one connected patch are one surface.
  func merge(_ planes: [(normal: SIMD3<Double>, offset: Double, inliers: [Int])], _ points: [SIMD3<Double>])
    -> [(normal: SIMD3<Double>, offset: Double, inliers: [Int])]
  {
    var result: [(normal: SIMD3<Double>, offset: Double, inliers: [Int])] = []
    let cosine = Double.cos(2 * .pi / 180)
    for plane in planes {
      // Same orientation and offset, and touching: two tables at one height stay two planes.
      let j = result.firstIndex { other in
        let dot = other.normal.dot(plane.normal)
        guard abs(dot) >= cosine, abs(other.offset - (dot >= 0 ? plane.offset : -plane.offset)) <= threshold
        else {
          return false
        }
        let union = other.inliers + plane.inliers
        return largestComponent(union, other.normal, points).count >= union.count * 9 / 10
      }
      if let j, let fit = PlaneGeometry.fit(points, result[j].inliers + plane.inliers) {
        result[j] = (fit.normal, fit.normal.dot(fit.centroid), result[j].inliers + plane.inliers)
      } else {
        result.append(plane)
      }
    }
    return result
  }

  /// Everything about a plane from its inliers.
  func describe(_ inliers: [Int], _ points: [SIMD3<Double>]) -> DetectedPlane {
    let fit = PlaneGeometry.fit(points, inliers)!
    var normal = fit.normal
    let along = normal.dot(up)
    let classification: DetectedPlane.Classification
    if abs(along) >= Double.cos(10 * .pi / 180) {
      classification = .horizontal
    } else if abs(along) <= Double.sin(10 * .pi / 180) {
      classification = .vertical
    } else {
      classification = .other
    }
    if classification == .horizontal {
      if along < 0 { normal = -normal }
    } else if normal.dot(-fit.centroid) < 0 {
      normal = -normal  // face the origin
    }
    let offset = normal.dot(fit.centroid)
    let rms =
      (inliers.reduce(0) { $0 + Double.pow(normal.dot(points[$1]) - offset, 2) } / Double(inliers.count))
      .squareRoot()
    let (u, v) = PlaneGeometry.basis(normal)
    let flat = inliers.map { i -> SIMD2<Double> in
      let d = points[i] - fit.centroid
      return SIMD2(d.dot(u), d.dot(v))
    }
    let hull2 = convexHull(flat)
    let hull = hull2.map { fit.centroid + u * $0.x + v * $0.y }
    let rectangle = PlaneGeometry.minimumRectangle(hull2)
    let axisX = (u * rectangle.direction.x + v * rectangle.direction.y).normalized()
    return DetectedPlane(
      normal: normal, offset: offset, centroid: fit.centroid, inliers: inliers.sorted(), rms: rms,
      classification: classification, hull: hull,
      extentCenter: fit.centroid + u * rectangle.center.x + v * rectangle.center.y, axisX: axisX,
      axisY: normal.cross(axisX), width: rectangle.size.x, length: rectangle.size.y)
  }
}
