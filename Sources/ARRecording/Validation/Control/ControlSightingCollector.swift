import ARGeo
import ARMath

/// Pairs control observations with the recording's camera poses and intrinsics as the records
/// stream past: a click with the frame within 1 ms of its time, a tap naming a control point
/// with the latest frame's intrinsics; each with the camera pose at that time (interpolated
/// between the poses around it, at most ``poseTolerance`` away).
public struct ControlSightingCollector {
  /// How far a frame's time may be from a click's, seconds.
  public static let clickTolerance = 0.001
  /// How far the poses around an observation may be from it, seconds.
  public var poseTolerance = 0.1

  private let points: [String: (world: SIMD3<Double>, sigma: Double, corners: [SIMD3<Double>]?)]
  private var clicks: [ControlObservation]
  private var clickMatched: [Bool]
  private var nextClick = 0
  private var lastIntrinsics: Pinhole<Double>?
  private var lastLens: LensDistortion = .none
  private var lastPose: CameraPoseSample?
  /// Observations waiting for the pose after them, with their intrinsics.
  private var waiting: [(ControlObservation, Pinhole<Double>)] = []
  /// The sightings made so far, in time order.
  public private(set) var sightings: [ControlSighting] = []
  /// Observations no pose could be found for (no pose within ``poseTolerance``).
  public private(set) var unposed: [ControlObservation] = []

  /// A collector for `site`'s control points and the `clicks` (any order).
  public init(site: GeoSite, clicks: [ControlObservation]) {
    var points: [String: (world: SIMD3<Double>, sigma: Double, corners: [SIMD3<Double>]?)] = [:]
    for p in site.controlPoints {
      points[p.name] = (
        WorldFrame.world(enu: site.frame.enu(p.coordinate)), p.sigma, p.markerCorners(in: site.frame)
      )
    }
    self.points = points
    self.clicks = clicks.sorted { $0.time < $1.time }
    clickMatched = Array(repeating: false, count: clicks.count)
  }

  /// Feeds one record (in time order).
  public mutating func consume(_ record: RecordingRecord) {
    switch record {
    case .pose(let pose): take(pose)
    case .frame(let frame):
      guard let k = frame.intrinsics else { break }
      (lastIntrinsics, lastLens) = (k, frame.lens)
      while nextClick < clicks.count, clicks[nextClick].time < frame.time - Self.clickTolerance {
        nextClick += 1  // no frame for it: reported by `unmatchedClicks`
      }
      var i = nextClick
      while i < clicks.count, abs(clicks[i].time - frame.time) <= Self.clickTolerance {
        var click = clicks[i]
        click.time = frame.time
        observe(click, k, lens: frame.lens)
        clickMatched[i] = true
        i += 1
      }
    case .tap(let tap):
      guard let name = tap.expected, points[name] != nil, let k = lastIntrinsics else { break }
      observe(
        ControlObservation(
          time: tap.time, name: name, pixel: tap.point, sigmaPixels: ControlObservation.tapSigma, source: .tap
        ),
        k, lens: lastLens)
    default: break
    }
  }

  /// Adds an observation found outside the record stream (a marker corner in a frame's image),
  /// at a time not yet past. Its pixel is in the frame's image as `lens` took it: the sighting
  /// keeps the ideal pinhole pixel (none past a fisheye's image circle).
  public mutating func observe(
    _ observation: ControlObservation, _ intrinsics: Pinhole<Double>, lens: LensDistortion = .none
  ) {
    var observation = observation
    guard let ideal = intrinsics.undistortedPixel(observation.pixel, lens: lens) else { return }
    observation.pixel = ideal
    if let pose = lastPose, pose.time == observation.time {
      sight(observation, intrinsics, pose.worldFromCamera)
    } else {
      waiting.append((observation, intrinsics))
    }
  }

  /// The clicks no frame's time matched (within 1 ms), with their lines.
  public var unmatchedClicks: [ControlObservation] {
    clicks.indices.filter { !clickMatched[$0] }.map { clicks[$0] }
  }

  /// Ends the stream: observations after the last pose take it when it is close enough.
  public mutating func finish() {
    for (observation, k) in waiting {
      if let pose = lastPose, abs(pose.time - observation.time) <= poseTolerance {
        sight(observation, k, pose.worldFromCamera)
      } else {
        unposed.append(observation)
      }
    }
    waiting.removeAll()
  }

  private mutating func take(_ pose: CameraPoseSample) {
    var still: [(ControlObservation, Pinhole<Double>)] = []
    for (observation, k) in waiting {
      guard pose.time >= observation.time else {
        still.append((observation, k))
        continue
      }
      if let before = lastPose, observation.time - before.time <= poseTolerance,
        pose.time - observation.time <= poseTolerance, pose.time > before.time
      {
        let f = (observation.time - before.time) / (pose.time - before.time)
        let a = before.worldFromCamera, b = pose.worldFromCamera
        sight(
          observation, k,
          RigidTransform(
            rotation: a.rotation.slerp(to: b.rotation, f),
            translation: a.translation + (b.translation - a.translation) * f))
      } else if pose.time - observation.time <= poseTolerance {
        sight(observation, k, pose.worldFromCamera)
      } else if let before = lastPose, observation.time - before.time <= poseTolerance {
        sight(observation, k, before.worldFromCamera)
      } else {
        unposed.append(observation)
      }
    }
    waiting = still
    lastPose = pose
  }

  private mutating func sight(
    _ observation: ControlObservation, _ k: Pinhole<Double>, _ sessionFromCamera: RigidTransform<Double>
  ) {
    guard let point = points[observation.name] else { return }
    var world = point.world
    if let corner = observation.corner {
      guard let corners = point.corners, corners.indices.contains(corner) else { return }
      world = corners[corner]
    }
    sightings.append(
      ControlSighting(
        observation: observation, sessionFromCamera: sessionFromCamera, intrinsics: k, world: world,
        worldSigma: point.sigma))
  }
}
