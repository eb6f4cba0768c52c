import ARGeo
import ARMath
import Foundation

/// Clicks a careful person would make on a simulated walk's frames: every control point the
/// true camera sees, at its true pixel plus seeded Gaussian noise, on one frame every
/// ``interval`` seconds. What `arscene simulate --clicks` writes, so that validation against
/// control points can be checked against the simulator's own truth.
public struct ControlClickSimulator {
  /// The 1σ noise of each click per image axis, pixels.
  public var noise: Double
  /// Seconds between the frames clicked.
  public var interval: Double
  /// Points further than this from the camera are not clicked (too small to click), metres.
  public var maxDistance = 150.0
  /// What was clicked, in time order.
  public private(set) var clicks: [ControlObservation] = []

  private let points: [(name: String, world: SIMD3<Double>)]
  private var random: SplitMix64
  private var lastClicked = -Double.infinity

  /// Clicks on `site`'s control points (their centres), with `noise` pixels of 1σ, one frame
  /// every `interval` seconds, drawn from `seed`.
  public init(site: GeoSite, seed: UInt64, noise: Double = 1, interval: Double = 1) {
    points = site.controlPoints.map { ($0.name, WorldFrame.world(enu: site.frame.enu($0.coordinate))) }
    random = SplitMix64(seed: seed ^ 0xC11C_C11C)
    self.noise = noise
    self.interval = interval
  }

  /// Looks at a frame whose camera truly sat at `worldFromCamera` (ARKit convention, the site's
  /// geographic world: x east, y up, z south at its origin, metres).
  public mutating func look(at frame: CameraFrameSample, worldFromCamera: RigidTransform<Double>) {
    guard frame.time >= lastClicked + interval - 1e-9, let k = frame.cameraIntrinsics else { return }
    lastClicked = frame.time
    let cameraFromWorld = worldFromCamera.inverse
    for point in points {
      let p = cameraFromWorld.transformPoint(point.world)
      guard p.length <= maxDistance, let pixel = k.projectARKit(p), pixel.x >= 4, pixel.y >= 4,
        pixel.x <= Double(k.width) - 4, pixel.y <= Double(k.height) - 4
      else { continue }
      let noisy = pixel + SIMD2(random.gaussian(), random.gaussian()) * noise
      clicks.append(
        ControlObservation(
          time: frame.time, name: point.name, pixel: noisy, sigmaPixels: Swift.max(noise, 0.1), source: .click
        ))
    }
  }

  /// The clicks as a clicks file (``ControlClicks``): `t,name,u,v,sigma_px`.
  public var csv: String {
    var text = "t,name,u,v,sigma_px\n"
    for c in clicks {
      let name =
        c.name.contains(",") || c.name.contains("\"")
        ? "\"" + c.name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : c.name
      text += "\(c.time),\(name),\(c.pixel.x),\(c.pixel.y),\(c.sigmaPixels)\n"
    }
    return text
  }
}
