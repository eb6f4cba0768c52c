import ARMath
import ARRecording
import ArgumentParser

/// `--camera NAME`, `--distortion`/`--fisheye` and `--image-size W,H`: the camera of a
/// recording's frames, stated over what the recording says (with the command's `--intrinsics`,
/// which `render` also takes in model mode).
struct FrameCameraOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The frames' camera, a published one: \(Self.names).",
      valueName: "name"))
  var camera: String?
  @OptionGroup var lens: LensOptions
  @Option(
    help: "The frames' image size W,H in pixels (for a recording that gives intrinsics without one).",
    transform: PixelSize.init(parsing:))
  var imageSize: PixelSize?

  func validate() throws {
    if let camera {
      do { _ = try RecordingCamera(published: camera) } catch {
        throw ValidationError("--camera: '\(camera.prefix(60))' is not a published camera (\(Self.names))")
      }
    }
    if let imageSize, !imageSize.fits(1...65_536) {
      throw ValidationError("--image-size: width and height must be whole pixels from 1 to 65536")
    }
  }

  static var names: String { RecordingCamera.published.keys.sorted().joined(separator: ", ") }

  /// Whether any option of the group was given.
  var isGiven: Bool { camera != nil || lens.distortion != nil || lens.fisheye != nil || imageSize != nil }

  /// The camera these options and `intrinsics` state: the published one, each field given
  /// replacing its own; nil when none was given.
  func stated(intrinsics: Pinhole<Double>?) throws -> RecordingCamera? {
    var stated = try camera.map { try RecordingCamera(published: $0) } ?? RecordingCamera()
    let lensGiven = lens.distortion != nil || lens.fisheye != nil
    stated = stated.overridden(
      by: RecordingCamera(
        intrinsics: intrinsics, lens: lensGiven ? try lens.lens() : nil,
        imageSize: imageSize.map { SIMD2($0.width, $0.height) }))
    return stated.isEmpty ? nil : stated
  }
}
