/// Plane detection that grows frame by frame, as ARKit's plane anchors do: new points join the
/// plane they lie on (which is refit and re-described), the rest wait in a pool that is searched
/// for new planes; planes that turn out to be one surface merge. Each plane keeps an identifier
/// across updates, so an app can move the anchor it created for it.
public struct IncrementalPlaneDetector: Sendable {
  /// The detector's settings.
  public let detector: PlaneDetector
  /// All points seen so far.
  public private(set) var cloud = PointCloud(points: [])
  /// The planes, with stable identifiers.
  public private(set) var planes: [(id: Int, plane: DetectedPlane)] = []
  private var pool: [Int] = []
  private var nextID = 1

  /// An empty detector.
  public init(detector: PlaneDetector) { self.detector = detector }

  /// Adds a frame's points (world metres); returns the identifiers of planes that were created
  /// or changed.
  @discardableResult
  public mutating func add(_ points: [SIMD3<Double>]) throws(PoseError) -> Set<Int> {
    for (i, p) in points.enumerated() where !(p.x.isFinite && p.y.isFinite && p.z.isFinite) {
      throw .invalidInput(field: "points[\(i)]", reason: "not finite")
    }
    let base = cloud.points.count
    cloud.points += points
    var changed = Set<Int>()
    var grown: [Int: [Int]] = [:]
    for (k, p) in points.enumerated() {
      // The nearest plane within the threshold takes the point.
      let candidates = planes.indices.filter { abs(planes[$0].plane.distance(p)) <= detector.threshold }
      if let j = candidates.min(by: { abs(planes[$0].plane.distance(p)) < abs(planes[$1].plane.distance(p)) })
      {
        grown[j, default: []].append(base + k)
      } else {
        pool.append(base + k)
      }
    }
    for (j, added) in grown {
      planes[j].plane = detector.describe(planes[j].plane.inliers + added, cloud.points)
      changed.insert(planes[j].id)
    }
    if pool.count >= detector.minimumInliers {
      let searched = pool
      let sub = PointCloud(points: searched.map { cloud.points[$0] })
      for plane in try detector.detect(sub) {
        let inliers = plane.inliers.map { searched[$0] }
        let taken = Set(inliers)
        pool.removeAll { taken.contains($0) }
        // The same surface as an existing plane (a second part of the floor): merge.
        let merged = detector.merge(
          planes.map { ($0.plane.normal, $0.plane.offset, $0.plane.inliers) } + [
            (plane.normal, plane.offset, inliers)
          ],
          cloud.points)
        if merged.count == planes.count {
          // It joined one of them: find which by overlap of inliers.
          if let j = merged.indices.first(where: { Set(merged[$0].inliers).isSuperset(of: taken) }) {
            planes[j].plane = detector.describe(merged[j].inliers, cloud.points)
            changed.insert(planes[j].id)
          }
        } else {
          planes.append((nextID, detector.describe(inliers, cloud.points)))
          changed.insert(nextID)
          nextID += 1
        }
      }
    }
    return changed
  }
}
