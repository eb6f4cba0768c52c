import ARGeo
import ARMath
import RealModule

/// The platform's geo poses (``GeoPoseSample``) against the truth: how often the truth lay
/// within each accuracy the platform claimed. Claims are 68% ones (ARCore's), so an honest
/// platform's `within_claimed` is near 0.68; users report claims under 1.5 m while 5–10 m off.
struct GeoPoseAudit {
  /// The site's frame: positions are compared in its east-north-up metres.
  let frame: LocalTangentFrame
  /// How far apart in time a geo pose and the truth may be, seconds.
  var pairingTolerance: Double
  private var lastTruth: GroundTruthSample?
  private var count = 0
  private var horizontal = Claims(), vertical = Claims(), yaw = Claims()

  /// Errors and the claims they were measured against, for one quantity.
  private struct Claims {
    var errors: [Double] = [], claimed: [Double] = []

    var summary: GeoPoseClaims.Quantity? {
      guard !errors.isEmpty else { return nil }
      let within = zip(errors, claimed).filter { $0 <= $1 }.count
      return GeoPoseClaims.Quantity(
        pairs: errors.count, errorMedian: Self.median(errors), claimedMedian: Self.median(claimed),
        withinClaimed: Double(within) / Double(errors.count))
    }

    static func median(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      let n = sorted.count
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
  }

  init(frame: LocalTangentFrame, pairingTolerance: Double) {
    self.frame = frame
    self.pairingTolerance = pairingTolerance
  }

  mutating func take(_ truth: GroundTruthSample) { lastTruth = truth }

  /// A geo pose, measured against the latest truth when it is close enough in time.
  mutating func take(_ pose: GeoPoseSample) {
    count += 1
    guard let truth = lastTruth, abs(truth.time - pose.time) <= pairingTolerance else { return }
    let measured = frame.enu(
      GeodeticCoordinate(
        latitudeDegrees: pose.latitude, longitudeDegrees: pose.longitude, height: pose.height))
    let real = frame.enu(
      GeodeticCoordinate(
        latitudeDegrees: truth.latitude, longitudeDegrees: truth.longitude, height: truth.height))
    let difference = measured - real
    if let claim = pose.horizontalAccuracy {
      horizontal.errors.append(SIMD2(difference.x, difference.y).length)
      horizontal.claimed.append(claim)
    }
    if let claim = pose.verticalAccuracy {
      vertical.errors.append(abs(difference.z))
      vertical.claimed.append(claim)
    }
    if let claim = pose.yawAccuracyDegrees, let orientation = pose.localFromCamera {
      let error = Self.heading(orientation) - Self.heading(truth.localFromCamera)
      yaw.errors.append(abs(Angle<Double>.radians(error).wrappedToPlusMinusPi.degrees))
      yaw.claimed.append(claim)
    }
  }

  /// The compass heading of the camera's view (−z) in the local x-east, y-up, z-south frame,
  /// radians clockwise from north.
  static func heading(_ localFromCamera: Quaternion<Double>) -> Double {
    let view = localFromCamera.act([0, 0, -1])
    return Double.atan2(y: view.x, x: -view.z)
  }

  /// The audit; nil when the recording had no geo poses.
  var report: GeoPoseClaims? {
    guard count > 0 else { return nil }
    return GeoPoseClaims(
      poses: count, horizontal: horizontal.summary, vertical: vertical.summary, yaw: yaw.summary)
  }
}

/// How the platform's geo poses kept their claims: per quantity, the pairs with truth, the
/// median error and claim, and the share of errors within the claim (0.68 for honest 68%
/// claims).
public struct GeoPoseClaims: Codable, Sendable, Equatable {
  /// One claimed quantity.
  public struct Quantity: Codable, Sendable, Equatable {
    /// Geo poses paired with truth that claimed it.
    public var pairs: Int
    /// The median error: metres (horizontal, vertical) or degrees (yaw).
    public var errorMedian: Double
    /// The median claim, in the same unit.
    public var claimedMedian: Double
    /// The share of pairs whose error was within the claim.
    public var withinClaimed: Double

    enum CodingKeys: String, CodingKey {
      case pairs, errorMedian = "error_median", claimedMedian = "claimed_median", withinClaimed =
        "within_claimed"
    }
  }

  /// Geo poses in the recording.
  public var poses: Int
  /// The horizontal position against its 68% radius, metres.
  public var horizontal: Quantity?
  /// The height against its 68% half-interval, metres.
  public var vertical: Quantity?
  /// The heading of the camera's view against its 68% half-interval, degrees.
  public var yaw: Quantity?
  /// The share within a claim an honest platform's 68% claims give.
  public var expectedWithin = 0.68

  enum CodingKeys: String, CodingKey {
    case poses, horizontal, vertical, yaw, expectedWithin = "expected_within"
  }
}
