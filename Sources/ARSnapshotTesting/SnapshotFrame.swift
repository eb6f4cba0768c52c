import ARImage
import ARRender

/// The rasterizer's inputs for a phone's snapshot (`PhoneView.snapshotFrame(_:)`): the view's
/// camera, the models' draw calls, the fixed lighting and the background. Drawing them with
/// `FrameRenderer` and `ShadingMode.lit(lighting)` gives the snapshot before its targets,
/// labels and tap are drawn over it.
public struct SnapshotFrame: Sendable {
  /// The view's camera: the phone's camera turned to the interface orientation and scaled to the
  /// screen's pixels, near and far planes at 1 cm and 1 km.
  public var camera: RenderCamera
  /// The scene's model, then the scenery (textured as ``SnapshotOptions/textures`` says), back
  /// faces drawn.
  public var draws: [DrawCall]
  /// The lights, fixed in the world.
  public var lighting: Lighting
  /// The camera frame as the view shows it, linear RGBA at the output size; nil for a plain fill.
  public var background: LinearImage?
  /// The plain fill, linear RGBA.
  public var backgroundColor: SIMD4<Float>
}
