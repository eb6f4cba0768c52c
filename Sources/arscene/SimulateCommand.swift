import ARFiles
import ARGeo
import ARImage
import ARImageIO
import ARMath
import ARRecording
import ARRender
import ARReplay
import ARScene
import ARSceneRendering
import ArgumentParser
import Foundation

/// `arscene simulate`: a recorded session with its truth, drawn from a phone's error model.
struct SimulateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Simulate a phone's AR session walking among a scene's geo-anchors, with the truth.",
    discussion: """
      Writes ARScene's recording format (docs/recordings.md): camera poses from drifting \
      visual-inertial odometry, frames, GNSS fixes (white noise, a Gauss-Markov wander, \
      multipath jumps, outages; the accuracy a 68% radius), compass headings (bias, noise, \
      disturbances), and the truth. The errors are a current phone's (ARRecording's \
      PhoneErrorModel documents each default and its source). The walk is --path's first \
      GeoJSON LineString, or a loop past every anchor. The same inputs give the same bytes. \
      With --frames DIR, each frame is also pictured: the scene rendered from the camera's true \
      pose is its camera image (DIR/frame_NNNNNN.png) and its depth (DIR/depth_NNNNNN.png, \
      16-bit millimetres about 256 pixels wide, as ARKit's), so that arscene render --recording \
      can draw an app's content over what the camera truly saw.
      """)

  @Option(help: "The scene file (its geo.origin and geo-anchored objects).") var scene: String
  @Option(help: "The seed of every random draw.") var seed: UInt64
  @Option(help: "Seconds walked.") var duration: Double = 300
  @Option(help: "A GeoJSON file whose first LineString is the walk ([longitude, latitude]).") var path:
    String?
  @Option(name: .shortAndLong, help: "The recording to write (.jsonl).") var output: String
  @Option(help: "Also picture each frame (camera image and depth) into this folder.") var frames: String?
  @Option(
    help: "The camera image's size W,H in pixels, the intrinsics scaled with it (default 1920,1440).",
    transform: PixelSize.init(parsing:))
  var imageSize: PixelSize?
  @Option(help: "Camera frames per second (default 10).") var frameRate: Double?
  @Option(
    help: """
      Also write the clicks a careful person would make on the frames: every control point of the \
      scene the true camera sees, one frame a second, with --click-noise pixels of noise (a clicks \
      file for validate --control).
      """)
  var clicks: String?
  @Option(help: "The clicks' 1-sigma noise per image axis, pixels.") var clickNoise: Double = 1
  @Flag(
    help: "A phone without errors: odometry, GNSS and compass all exact (to test what is drawn from them).")
  var perfect = false
  @Option(
    help: """
      Also write the platform's geo pose at each frame (as ARCore Geospatial gives it), its       claimed 68% accuracies this many times smaller than its errors' (1: honest).
      """)
  var geoPoseOptimism: Double?

  @OptionGroup var references: ReferenceAccess

  func validate() throws {
    guard duration > 0, duration <= 86_400 else {
      throw ValidationError("--duration: expected seconds in (0, 86400], got \(duration)")
    }
    if let imageSize, !imageSize.fits(16...8192) {
      throw ValidationError("--image-size: width and height must be whole pixels from 16 to 8192")
    }
    guard clickNoise.isFinite, clickNoise >= 0, clickNoise <= 1000 else {
      throw ValidationError("--click-noise: expected pixels in [0, 1000], got \(clickNoise)")
    }
    if let geoPoseOptimism, !(geoPoseOptimism > 0 && geoPoseOptimism <= 1000) {
      throw ValidationError("--geo-pose-optimism: expected a factor in (0, 1000], got \(geoPoseOptimism)")
    }
    let poseRate = PhoneErrorModel().poseRate
    if let frameRate, !(frameRate > 0 && frameRate <= poseRate) {
      throw ValidationError("--frame-rate: expected (0, \(poseRate)] frames a second, got \(frameRate)")
    }
  }

  func run() throws {
    try reportingInputFailures {
      guard output.lowercased().hasSuffix(".jsonl") else {
        throw InputFailure(message: "\(output): a recording is written as .jsonl")
      }
      let site: GeoSite
      do { site = try GeoSite.load(scene: scene) } catch { throw InputFailure(error) }
      if clicks != nil, site.controlPoints.isEmpty {
        throw InputFailure(message: "--clicks: \(scene) has no control_points to click")
      }
      do {
        let walk = try path.map { try WalkPath.geoJSON(path: $0, frame: site.frame) } ?? WalkPath.tour(site)
        var model = perfect ? PhoneErrorModel.perfect : PhoneErrorModel()
        if let frameRate { model.frameRate = frameRate }
        model.geoPoseOptimism = geoPoseOptimism
        if let imageSize {
          let wh = [Double(imageSize.width), Double(imageSize.height)]
          let (sx, sy) = (wh[0] / Double(model.imageSize.x), wh[1] / Double(model.imageSize.y))
          model.intrinsics = model.intrinsics.scaled(x: sx, y: sy)
          model.imageSize = SIMD2(Int(wh[0]), Int(wh[1]))
        }
        let simulator = SessionSimulator(site: site, path: walk, model: model, seed: seed, duration: duration)
        // A simulated second's records, and with --frames its pictures.
        let pictured =
          frames == nil ? 0 : duration * model.frameRate * Double(model.imageSize.x * model.imageSize.y)
        CommandTimeLimit.start(
          "simulate", seconds: CommandTimeLimit.budget(pixelSamples: pictured, bytes: duration * 100_000))
        let camera = try frames.map {
          try SimulatedFramePicturer(
            scene: Scene.read(path: scene), site: site, folder: $0, recording: output)
        }
        let writer = try RecordingWriter(path: output, header: simulator.header)
        var clicker = clicks.map { _ in ControlClickSimulator(site: site, seed: seed, noise: clickNoise) }
        let picture: ((CameraFrameSample, RigidTransform<Double>) -> CameraFrameSample)? =
          camera == nil && clicker == nil
          ? nil
          : { frame, pose in
            clicker?.look(at: frame, worldFromCamera: pose)
            return camera?.picture(frame, pose: pose) ?? frame
          }
        try simulator.run(picture: picture) { record throws(RecordingError) in try writer.write(record) }
        if let failure = camera?.failure { throw failure }
        try writer.finish()
        if let clicks, let clicker { try FileIO.writeAtomically(Array(clicker.csv.utf8), to: clicks) }
      } catch let failure as InputFailure { throw failure } catch { throw InputFailure(error) }
    }
  }
}
