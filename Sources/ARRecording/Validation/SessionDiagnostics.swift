import ARGeo
import ARMath
import RealModule

/// What a recording says about its own alignment without any truth: how the anchors moved in
/// the session and in the image as the alignment changed, and whether the fixes and the compass
/// agree with the odometry as well as their reported accuracies claim. ``AnchorValidator`` feeds
/// it; its figures are the report's `placement`, `stability` and `consistency`.
struct SessionDiagnostics {
  /// Per anchor: the session point where the app drew it, first and now (metres, the
  /// recording's session frame), the claimed σ now, and the jitter at frames (pixels).
  struct AnchorTrack {
    var first: SIMD3<Double>?, last: SIMD3<Double>?, atLastFrame: SIMD3<Double>?
    var sigma: Double?
    /// The frames' jitters that were not zero, and how many were: most frames see no change of
    /// the alignment, so a long recording keeps a count for them rather than a zero each.
    var jitter: [Double] = [], stillFrames = 0
    /// The largest jitter in each second that had one: (seconds, pixels).
    var jitterPerSecond: [(time: Double, pixels: Double)] = []
  }

  var anchors: [AnchorTrack]
  /// Each fix's normalised innovation squared against the fused track predicted from the
  /// odometry (χ² with 2 degrees of freedom when the accuracies are honest).
  private(set) var gpsNIS: [Double] = []
  /// The compass readings' session yaw minus the fixes' yaw (radians), summed as unit vectors
  /// and as squares: a compass reads several times a second, so a long recording keeps sums, not
  /// readings.
  private var heading: (unit: SIMD2<Double>, squares: Double, count: Int) = (.zero, 0, 0)
  /// Each reading's innovation squared over its variance (the compass's and the fixes' yaw's
  /// together: χ² with 1 degree of freedom), a seeded uniform sample of at most
  /// ``headingSampleLimit`` of them: what the report's histogram needs.
  private(set) var headingNIS: [Double] = []
  static let headingSampleLimit = 10_000
  private var sampler = SplitMix64(seed: 0x5EED)
  /// The accepted fixes' horizontal session positions (x, −z) and ENU positions (east, north),
  /// for the odometry's scale.
  private var scalePairs: [(session: SIMD2<Double>, enu: SIMD2<Double>, sigma: Double)] = []

  init(anchorCount: Int) { anchors = Array(repeating: AnchorTrack(), count: anchorCount) }

  /// A fix before it joins the alignment: its innovation against where the fused alignment so
  /// far puts the camera, `σ²` per axis the fix's and the prediction's together. Only fixes the
  /// alignment `accepted` (not multipath jumps) measure the odometry's scale.
  mutating func fix(
    enu: SIMD3<Double>, sessionPosition: SIMD3<Double>, sigma: Double, prediction: SessionAlignmentEstimate?,
    accepted: Bool
  ) {
    if accepted {
      scalePairs.append((SIMD2(sessionPosition.x, -sessionPosition.z), SIMD2(enu.x, enu.y), sigma))
    }
    guard let prediction else { return }
    let predicted = prediction.alignment.enu(sessionPoint: sessionPosition)
    let r = SIMD2(enu.x - predicted.x, enu.y - predicted.y)
    let predictedSigma = prediction.horizontalSigma(atSessionPoint: sessionPosition)
    let variance = sigma * sigma + predictedSigma * predictedSigma
    guard variance > 0 else { return }
    gpsNIS.append((r * r).sum() / variance)
  }

  /// A compass reading's session yaw (radians) against the fixes' yaw and its σ, with the
  /// compass's own σ (radians).
  mutating func compass(yaw: Double, against gps: SessionAlignmentEstimate, compassSigma: Double) {
    let innovation = (Angle(radians: yaw) - gps.alignment.yaw).wrappedToPlusMinusPi.radians
    heading.unit += SIMD2(Double.cos(innovation), Double.sin(innovation))
    heading.squares += innovation * innovation
    heading.count += 1
    let variance = compassSigma * compassSigma + gps.yawSigma.radians * gps.yawSigma.radians
    guard variance > 0 else { return }
    // Reservoir sampling: every reading equally likely to be kept, whatever the recording's length.
    let nis = innovation * innovation / variance
    if headingNIS.count < Self.headingSampleLimit {
      headingNIS.append(nis)
    } else {
      let slot = Int.random(in: 0..<heading.count, using: &sampler)
      if slot < Self.headingSampleLimit { headingNIS[slot] = nis }
    }
  }

  /// The anchors as the alignment now places them, and the σ it claims for each (horizontal RMS
  /// radius, metres).
  mutating func place(_ i: Int, sessionPoint: SIMD3<Double>, sigma: Double) {
    if anchors[i].first == nil { anchors[i].first = sessionPoint }
    anchors[i].last = sessionPoint
    anchors[i].sigma = sigma
  }

  /// At a frame: how far each anchor moved in the image since the frame before because the
  /// alignment moved it, with this frame's camera for both (so the camera's own motion is out).
  mutating func frame(
    at time: Double, cameraFromSession: RigidTransform<Double>, intrinsics k: CameraIntrinsics<Double>
  ) {
    for i in anchors.indices {
      guard let now = anchors[i].last else { continue }
      defer { anchors[i].atLastFrame = now }
      guard let before = anchors[i].atLastFrame,
        let a = k.projectARKit(cameraFromSession.transformPoint(now)),
        let b = k.projectARKit(cameraFromSession.transformPoint(before)),
        (0...Double(k.width)).contains(a.x), (0...Double(k.height)).contains(a.y)
      else { continue }
      let pixels = (a - b).length
      if pixels == 0 { anchors[i].stillFrames += 1 } else { anchors[i].jitter.append(pixels) }
      if let last = anchors[i].jitterPerSecond.last, time < last.time + 1 {
        anchors[i].jitterPerSecond[anchors[i].jitterPerSecond.count - 1].pixels = Swift.max(
          last.pixels, pixels)
      } else {
        anchors[i].jitterPerSecond.append((time, pixels))
      }
    }
  }

  /// The anchor's stability over the session.
  func stability(_ i: Int) -> ValidationReport.Stability {
    let track = anchors[i]
    // Jitters are lengths (≥ 0): the still frames' zeros come first in order.
    let sorted = track.jitter.sorted(), count = track.stillFrames + sorted.count
    func percentile(_ p: Double) -> Double? {
      guard count > 0 else { return nil }
      let rank = Swift.min(count - 1, Int((p * Double(count - 1)).rounded()))
      return rank < track.stillFrames ? 0 : sorted[rank - track.stillFrames]
    }
    var drift: Double?
    if let first = track.first, let last = track.last { drift = (last - first).length }
    return ValidationReport.Stability(
      jitterP50: percentile(0.5), jitterP95: percentile(0.95),
      jitterMax: sorted.last ?? (count > 0 ? 0 : nil), frames: count,
      drift: drift)
  }

  /// The fixes' and the compass's agreement with the odometry.
  func consistency() -> ValidationReport.Consistency {
    // χ² with 2 degrees of freedom: P(NIS ≤ x) = 1 − exp(−x/2), so 68% within −2 ln 0.32.
    let within68 = -2 * Double.log(0.32)
    var bias: Double?, rms: Double?
    if heading.count > 0 {
      bias = Double.atan2(y: heading.unit.y, x: heading.unit.x) * 180 / .pi
      rms =
        (heading.squares / Double(heading.count)).squareRoot() * 180
        / .pi
    }
    let (scale, extent) = odometryScale()
    return ValidationReport.Consistency(
      gpsNISMean: gpsNIS.isEmpty ? nil : gpsNIS.reduce(0, +) / Double(gpsNIS.count),
      gpsWithin68: gpsNIS.isEmpty
        ? nil : Double(gpsNIS.filter { $0 <= within68 }.count) / Double(gpsNIS.count),
      gpsInnovations: gpsNIS.count, headingInnovationRMSDeg: rms, headingBiasDeg: bias,
      headingInnovations: heading.count, odometryScale: scale, walkExtent: extent)
  }

  /// The scale that best maps the odometry's horizontal positions onto the fixes' (least
  /// squares over a rotation and a translation: Umeyama's in the plane), and how far the walk
  /// spread (the RMS distance of its positions from their centroid, metres). Nil scale for
  /// fewer than three fixes, or a walk that spread less than twice the fixes' RMS σ: the
  /// fixes' noise would then be the scale.
  private func odometryScale() -> (Double?, Double?) {
    guard scalePairs.count >= 3 else { return (nil, nil) }
    let n = Double(scalePairs.count)
    let cs = scalePairs.reduce(SIMD2<Double>.zero) { $0 + $1.session } / n
    let ce = scalePairs.reduce(SIMD2<Double>.zero) { $0 + $1.enu } / n
    var a = 0.0, b = 0.0, spread = 0.0, variance = 0.0
    for (s, e, sigma) in scalePairs {
      variance += sigma * sigma / n
      let (p, q) = (s - cs, e - ce)
      a += p.x * q.x + p.y * q.y
      b += p.x * q.y - p.y * q.x
      spread += (p * p).sum()
    }
    let extent = (spread / n).squareRoot()
    guard extent > 1e-6, extent > 2 * variance.squareRoot() else { return (nil, extent) }
    return ((a * a + b * b).squareRoot() / spread, extent)
  }
}
