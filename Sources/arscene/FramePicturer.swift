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

/// Pictures a simulated session's frames: the scene drawn from the camera's true pose is what
/// the camera saw, and its depth what the phone's depth sensor measured.
final class FramePicturer {
  let folder: String
  /// The folder as the recording names it: relative to the recording's folder when inside it.
  let recordedFolder: String
  let draws: [DrawCall]
  let lighting: Lighting
  let background: SIMD4<Float>
  let near: Float, far: Float
  let imageRenderer = FrameRenderer(), depthRenderer = FrameRenderer()
  /// The first failure; no frame is pictured after it.
  var failure: Error?

  init(scene path: String, folder: String, recording: String) throws {
    let scene = try Scene.read(path: path)
    // Geo-anchored objects where they truly are: the local world at the site's origin, the frame
    // the true poses are given in.
    // The surveyed markers among the scene's control points, printed where they stand.
    let site = try GeoSite.load(scene: path)
    draws =
      try scene.placingGeoAnchors(with: SessionAlignment()).drawCalls()
      + ControlMarkerCards.drawCalls(site.controlPoints, in: site.frame)
    lighting = scene.lighting
    background = scene.backgroundColor
    (near, far) = (Float(scene.clipPlanes.lowerBound), Float(scene.clipPlanes.upperBound))
    self.folder = folder
    do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
      throw InputFailure(message: "\(folder): cannot create the folder: \(error.localizedDescription)")
    }
    let base = URL(fileURLWithPath: recording).deletingLastPathComponent().standardizedFileURL.path + "/"
    let full = URL(fileURLWithPath: folder).standardizedFileURL.path
    recordedFolder = full.hasPrefix(base) ? String(full.dropFirst(base.count)) : full
  }

  func picture(_ frame: CameraFrameSample, pose: RigidTransform<Double>) -> CameraFrameSample {
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
