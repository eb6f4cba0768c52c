import ARImage

/// A tiled software rasterizer: homogeneous clipping, fixed-point edge functions with OpenGL's
/// top-left fill rule (as applied in GL's bottom-up rows), a depth buffer, perspective-correct
/// interpolation and per-pixel shading, tiles rendered on several threads.
public enum Renderer {
  /// Renders `draws` seen by `camera` over `background` (linear RGBA at the output size, or one
  /// colour), returning 8-bit RGBA: sRGB-encoded for ``ShadingMode/lit(_:)``, raw values for the
  /// comparison modes. For many frames (a recording), a ``FrameRenderer`` reuses its buffers.
  public static func render(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage? = nil,
    backgroundColor: SIMD4<Float> = SIMD4(0, 0, 0, 1), settings: RenderSettings = RenderSettings()
  ) throws(RenderError) -> RGBA8Image {
    try FrameRenderer().render(
      draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
      settings: settings)
  }
}
