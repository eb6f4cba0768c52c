import ARGeo
import ARImage
import ARImageIO
import ARMath
import ARRecording
import ARRender
import ARScene
import ARSceneRendering
import Foundation

/// Pictures a simulated session's frames (`arscene simulate --frames`): the scene drawn from the
/// camera's true pose is what the camera saw (`frame_NNNNNN.png`), and its depth what the
/// phone's depth sensor measured (`depth_NNNNNN.png`, 16-bit millimetres at ARKit's 256-pixel
/// width); the scene's surveyed markers are printed where they stand.
public final class SimulatedFramePicturer {
  /// The folder the pictures are written to.
  public let folder: String
  /// The folder as the recording names it: relative to the recording's folder when inside it.
  let recordedFolder: String
  let draws: [DrawCall]
  let lighting: Lighting
  let background: SIMD4<Float>
  let near: Float, far: Float
  let imageRenderer = FrameRenderer(), depthRenderer = FrameRenderer()
  /// The first failure; no frame is pictured after it.
  public private(set) var failure: Error?

  /// A picturer of `scene` (its geo-anchored objects where they truly are) at `site` into
  /// `folder` (created if missing), for the recording written at `recording` (which names the
  /// pictures relative to its own folder).
  ///
  /// - Throws: `SceneError` when the scene cannot be drawn, ``FrameFolderError`` when the folder
  ///   cannot be made.
  public init(scene: Scene, site: GeoSite, folder: String, recording: String) throws {
    // Geo-anchored objects where they truly are: the local world at the site's origin, the frame
    // the true poses are given in. The surveyed markers among the scene's control points,
    // printed where they stand.
    draws =
      try scene.placingGeoAnchors(with: SessionAlignment()).drawCalls()
      + ControlMarkerCards.drawCalls(site.controlPoints, in: site.frame)
    lighting = scene.lighting
    background = scene.backgroundColor
    (near, far) = (Float(scene.clipPlanes.lowerBound), Float(scene.clipPlanes.upperBound))
    self.folder = folder
    do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
      throw FrameFolderError(path: folder, reason: error.localizedDescription)
    }
    let base = URL(fileURLWithPath: recording).deletingLastPathComponent().standardizedFileURL.path + "/"
    let full = URL(fileURLWithPath: folder).standardizedFileURL.path
    recordedFolder = full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
  }

  /// `frame` with its picture and depth taken from `pose` (world from camera, the true pose) and
  /// named in it; the frame as it was once a picture has failed (``failure`` says why).
  public func picture(_ frame: CameraFrameSample, pose: RigidTransform<Double>) -> CameraFrameSample {
    guard failure == nil, let k = frame.cameraIntrinsics else { return frame }
    let name = String(format: "%06d.png", frame.index)
    var pictured = frame
    do {
      let camera = RenderCamera(
        PinholeCamera(intrinsics: k, worldFromCamera: pose), near: Double(near), far: Double(far))
      let image = try imageRenderer.render(
        draws, camera: camera, shading: .lit(lighting), backgroundColor: background)
      try ImageFile.writePNG(image, to: folder + "/frame_" + name, compression: 1)
      // ARKit's depth: 256×192 for a 1920×1440 image, the same field of view.
      let depthWidth = min(k.width, 256)
      let depthHeight = max(1, Int((Double(k.height) * Double(depthWidth) / Double(k.width)).rounded()))
      var depthCamera = camera
      depthCamera.intrinsics = camera.intrinsics.scaled(toWidth: depthWidth, height: depthHeight)
      let (_, depth) = try depthRenderer.renderWithDepth(draws, camera: depthCamera, shading: .unlit)
      try ImageFile.writeDepthPNG(depth, to: folder + "/depth_" + name)
      pictured.image = .file(recordedFolder + "/frame_" + name)
      pictured.depthPath = recordedFolder + "/depth_" + name
    } catch { failure = error }
    return pictured
  }
}
