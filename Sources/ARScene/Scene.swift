import ARFiles
import ARFilm
import ARGeo
import ARImage
import ARMath
import ARRender
import Foundation

/// A scene file loaded and checked: models read and placed, camera and lights resolved, named
/// points placed in the world.
///
/// A scene holds meshes, not draw calls: textures are decoded when a frame is rendered
/// (ARSceneRendering's `drawCalls()`), so hit-testing a scene never touches an image file.
public struct Scene: Sendable {
  /// The scene file's path.
  public var path: String
  /// The file as written.
  public var file: SceneFile
  /// The camera at the output size: intrinsics in output pixels, `worldFromCamera` in the ARKit
  /// convention (metres), in `Double` as the file gives it. Hit-testing uses it as it is;
  /// rendering narrows it to `Float` once (``renderCamera``).
  public var camera: PinholeCamera<Double>
  /// The near and far clip planes, metres from the camera.
  public var clipPlanes: ClosedRange<Double>
  /// The camera's lens: the scene is rendered as it shows the world (``camera`` is the ideal
  /// pinhole with the same intrinsics).
  public var lens: LensDistortion = .none
  /// The camera as the renderer takes it.
  public var renderCamera: RenderCamera {
    RenderCamera(camera, near: clipPlanes.lowerBound, far: clipPlanes.upperBound)
  }
  /// The lights.
  public var lighting: Lighting
  /// The scene file's objects, in file order: each model placed, with its point markers.
  public var objects: [SceneObject]
  /// The camera frame behind the models, in linear light at the output size, if any.
  public var background: LinearImage?
  /// The background colour when there is no frame.
  public var backgroundColor: SIMD4<Float>
  /// Named points of the objects (`objects[i].points`), placed in the world: tap targets.
  public var targets: [SceneTarget]
  /// The local ENU frame at the file's `geo.origin`, when it has one.
  public var geoFrame: LocalTangentFrame? = nil
  /// The shadow-catcher ground plane, when the file asks for shadows.
  public var shadows: ShadowCatcher? = nil
  /// The film look over each finished frame (before labels and cursors, which are the app's),
  /// when the file names one.
  public var film: FilmLook? = nil
  /// What reading the scene's models said: each warning names the model file and what of it is
  /// left out or drawn otherwise than its format asks (a texture not applied, a prim not
  /// drawn), prefixed with the object's field (`objects[i]`). Commands print them; a library
  /// user should show or check them.
  public var warnings: [String] = []

  /// Reads and checks a scene file, loading every model it names (textures are checked to exist
  /// and decoded when rendered).
  ///
  /// - Parameters:
  ///   - path: The scene file (JSON); the paths in it are relative to its folder.
  ///   - width: Overrides the file's output width in pixels (the intrinsics scale with it).
  ///   - height: Overrides the file's output height in pixels.
  ///   - projection: Converts the coordinates of a model placed in a projected CRS (`"crs"`) to
  ///     WGS84 (ARCRS's `CoordinateOperation.projectionToWGS84`); without it such a model is an
  ///     error.
  /// - Throws: ``SceneError`` naming the file and the JSON field.
  public static func load(
    path: String, width: Int? = nil, height: Int? = nil, projection: CRSProjection? = nil
  ) throws(SceneError) -> Scene {
    try SceneResolver(path: path, file: SceneFile.read(path: path), projection: projection)
      .resolve(width: width, height: height)
  }
}
