extension CameraIntrinsics {
  /// The OpenGL clip-space projection matrix of this camera, for eye coordinates in the ARKit
  /// convention (looking down −Z), with depth mapped like ``Matrix4/perspective(verticalFieldOfView:aspect:near:far:)``
  /// (NDC −1 at `near`, +1 at `far`).
  ///
  /// NDC x = −1 is the image's left edge (pixel x = 0) and +1 its right edge (x = width);
  /// NDC y = +1 is the top edge (pixel y = 0) and −1 the bottom (y = height). So a pixel is
  /// `((ndc.x + 1)·width/2, (1 − ndc.y)·height/2)`, the same as ``projectARKit(_:)``; an OpenGL
  /// framebuffer, whose rows run bottom-up, holds the image upside down.
  ///
  /// - Parameters:
  ///   - near: Near-plane distance in metres, > 0.
  ///   - far: Far-plane distance in metres, > `near`.
  @inlinable
  public func projectionMatrix(near: Scalar, far: Scalar) -> Matrix4<Scalar> {
    let w = Scalar(width), h = Scalar(height)
    var m = Matrix4<Scalar>(diagonal: .zero)
    m[0, 0] = 2 * fx / w
    m[1, 1] = 2 * fy / h
    // The principal point shifts the image: these terms scale with −z, i.e. with clip w.
    m[2, 0] = 1 - 2 * cx / w
    m[2, 1] = 2 * cy / h - 1
    m[2, 2] = -(far + near) / (far - near)
    m[2, 3] = -1
    m[3, 2] = -(2 * far * near) / (far - near)
    return m
  }
}
