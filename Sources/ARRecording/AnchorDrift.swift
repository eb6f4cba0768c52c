import ARMath

/// How far content an app placed drifts from where it belongs, measured against a truth track:
/// what a user of an AR app sees as a label sliding off its building.
///
/// An anchor is placed as the app places one in front of its camera: at a moment `t₀` of the
/// paired trajectories, at `offset` in the camera's frame. The app keeps it at `E(t₀)·offset` in
/// its world and draws it at `E(t)⁻¹·E(t₀)·offset` in its camera at each later pose; in truth the
/// same content sits at `G(t₀)·offset` and belongs at `G(t)⁻¹·G(t₀)·offset`. The drift at `t` is
/// the distance between the two, metres in the camera's frame, and, through the camera's lens,
/// pixels on screen. It needs no alignment of the two worlds (a rigid one changes nothing); a
/// monocular estimate must be scaled onto the truth first (`sim3`), so that its metres are real.
public struct AnchorDrift: Codable, Sendable, Equatable {
  /// One anchor's drift.
  public struct Anchor: Codable, Sendable, Equatable {
    /// When it was placed (the first pair at or after the asked time), seconds.
    public var placedAt: Double
    /// Where, in the camera's frame then, metres.
    public var offset: [Double]
    /// The distance from where it belongs, metres, over the pairs from its placing on.
    public var errorM: DriftStatistics
    /// The displacement on screen, pixels, over the pairs where both points are in front of the
    /// camera; nil without a camera.
    public var errorPx: DriftStatistics?
    /// The pairs where the pixel displacement was not measured (a point behind the camera).
    public var behindCamera: Int
    /// Time, metres and pixels (nil where not measured) of each pair: the drift over time.
    public var series: [Sample]
    /// The five pairs of largest drift in metres, largest first.
    public var worst: [Sample]

    enum CodingKeys: String, CodingKey {
      case placedAt = "placed_at", offset, errorM = "error_m", errorPx = "error_px"
      case behindCamera = "behind_camera", series, worst
    }
  }

  /// One pair's drift.
  public struct Sample: Codable, Sendable, Equatable {
    /// Seconds (the estimate's time).
    public var t: Double
    /// Metres.
    public var errorM: Double
    /// Pixels; nil where not measured.
    public var errorPx: Double?

    enum CodingKeys: String, CodingKey {
      case t, errorM = "error_m", errorPx = "error_px"
    }
  }

  /// The anchors, in the order they were asked for.
  public var anchors: [Anchor]
  /// Every anchor's pairs together: metres.
  public var errorM: DriftStatistics
  /// Every anchor's pairs together: pixels; nil without a camera or any measured pair.
  public var errorPx: DriftStatistics?
  /// The pose pairs of the two trajectories.
  public var pairs: Int
  /// Lines skipped reading the files (lenient reading), as the trajectory metrics count them.
  public var skipped = 0

  enum CodingKeys: String, CodingKey {
    case anchors, errorM = "error_m", errorPx = "error_px", pairs, skipped
  }

  /// The projection of a point in the camera's frame: a lens and the axes the frame has.
  public struct Camera: Sendable {
    /// The lens: focal lengths and principal point, pixels.
    public var pinhole: Pinhole<Double>
    /// Its distortion, applied to normalized coordinates.
    public var lens: LensDistortion
    /// The camera frame's axes: OpenCV's (x right, y down, looking down +z: TUM's, KITTI's,
    /// EuRoC's cameras) or ARKit's (y up, looking down −z).
    public var convention: CameraConvention

    /// A camera of these parts.
    public init(
      pinhole: Pinhole<Double>, lens: LensDistortion = .none, convention: CameraConvention = .opencv
    ) {
      self.pinhole = pinhole
      self.lens = lens
      self.convention = convention
    }

    /// The pixel of a point in the camera's frame, or nil when it is not in front.
    func pixel(_ p: SIMD3<Double>) -> SIMD2<Double>? {
      let (x, y, depth) = convention == .arkit ? (p.x, -p.y, -p.z) : (p.x, p.y, p.z)
      guard depth > 0 else { return nil }
      let distorted = lens.distort([x / depth, y / depth])
      return [pinhole.fx * distorted.x + pinhole.cx, pinhole.fy * distorted.y + pinhole.cy]
    }
  }

  /// Times every `step` seconds from the first of `trajectory`'s poses through its last: where
  /// anchors are placed when they are placed at a steady pace.
  public static func placements(every step: Double, over trajectory: Trajectory) -> [Double] {
    guard let first = trajectory.timestamps.first, let last = trajectory.timestamps.last else { return [] }
    return Array(stride(from: first, through: last, by: step))
  }

  /// The drift of anchors placed at `times` (seconds; each at the first pair at or after it) at
  /// `offset` (metres, the camera's frame), `reference` being the truth and `estimate` the app's
  /// trajectory, already paired pose by pose (``AlignedTrajectories``).
  /// - Throws: ``TrajectoryError/incomparable(_:)`` when a time is after the last pair.
  public init(
    reference: Trajectory, estimate: Trajectory, placedAt times: [Double], offset: SIMD3<Double>,
    camera: Camera?
  ) throws(TrajectoryError) {
    precondition(reference.count == estimate.count, "paired trajectories")
    var anchors: [Anchor] = []
    var (allMetres, allPixels): ([Double], [Double]) = ([], [])
    for time in times {
      guard let start = estimate.timestamps.firstIndex(where: { $0 >= time }) else {
        throw .incomparable(
          "no pose pair at or after \(time) s to place an anchor at (the last is at \(estimate.timestamps.last ?? .nan) s)"
        )
      }
      let app = estimate.poses[start].transformPoint(offset),
        truth = reference.poses[start].transformPoint(offset)
      var series: [Sample] = []
      for k in start..<estimate.count {
        let drawn = estimate.poses[k].inverse.transformPoint(app),
          belongs = reference.poses[k].inverse.transformPoint(truth)
        var pixels: Double?
        if let camera, let a = camera.pixel(drawn), let b = camera.pixel(belongs) { pixels = (a - b).length }
        series.append(Sample(t: estimate.timestamps[k], errorM: (drawn - belongs).length, errorPx: pixels))
      }
      let metres = series.map(\.errorM), pixels = series.compactMap(\.errorPx)
      allMetres += metres
      allPixels += pixels
      anchors.append(
        Anchor(
          placedAt: estimate.timestamps[start], offset: [offset.x, offset.y, offset.z],
          errorM: DriftStatistics(metres), errorPx: pixels.isEmpty ? nil : DriftStatistics(pixels),
          behindCamera: camera == nil ? 0 : series.count - pixels.count, series: series,
          worst: Array(series.sorted { $0.errorM > $1.errorM }.prefix(5))))
    }
    self.anchors = anchors
    errorM = DriftStatistics(allMetres)
    errorPx = allPixels.isEmpty ? nil : DriftStatistics(allPixels)
    pairs = estimate.count
  }
}

/// Statistics of drift values: evo's (``ErrorStatistics``) and the percentiles a user reads a
/// drift by, numpy's (`np.percentile`, linear between ranks).
public struct DriftStatistics: Codable, Sendable, Equatable {
  /// Root mean square, mean, median, standard deviation (population), smallest, largest.
  public var rmse: Double, mean: Double, median: Double, std: Double, min: Double, max: Double
  /// The 90th, 95th and 99th percentiles.
  public var p90: Double, p95: Double, p99: Double
  /// Values.
  public var count: Int

  /// The statistics of `values` (at least one).
  public init(_ values: [Double]) {
    let evo = ErrorStatistics(values)
    (rmse, mean, median, std, min, max, count) = (
      evo.rmse, evo.mean, evo.median, evo.std, evo.min, evo.max, evo.pairs
    )
    let sorted = values.sorted()
    func percentile(_ p: Double) -> Double {
      let rank = p / 100 * Double(sorted.count - 1)
      let low = Int(rank.rounded(.down)), high = Swift.min(low + 1, sorted.count - 1)
      return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
    }
    (p90, p95, p99) = (percentile(90), percentile(95), percentile(99))
  }
}
