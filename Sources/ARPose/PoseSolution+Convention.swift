import ARMath

extension PoseSolution {
  /// The same pose with its camera frame in `target`'s convention: the rotation and translation
  /// turned by `CameraConvention.cameraFromCamera(from:to:)`, and the covariance with
  /// them (its perturbations are about the camera's axes, so the flipped axes change sign).
  public func expressed(in target: CameraConvention) -> PoseSolution {
    guard target != convention else { return self }
    var turned = self
    turned.cameraFromTarget =
      CameraConvention.cameraFromCamera(from: convention, to: target) * cameraFromTarget
    // Rotation-vector perturbation, then translation: y and z of each flip.
    let signs: [Double] = [1, -1, -1, 1, -1, -1]
    for i in 0..<6 {
      for j in 0..<6 { turned.covariance[i * 6 + j] = covariance[i * 6 + j] * signs[i] * signs[j] }
    }
    turned.convention = target
    return turned
  }
}

extension MarkerPose {
  /// Both solutions with their camera frame in `target`'s convention; see
  /// ``PoseSolution/expressed(in:)``.
  public func expressed(in target: CameraConvention) -> MarkerPose {
    var turned = self
    turned.solutions = solutions.map { $0.expressed(in: target) }
    return turned
  }
}
