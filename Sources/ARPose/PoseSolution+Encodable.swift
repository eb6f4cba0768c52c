import ARMath

/// A pose solution as `arscene pose marker` prints it: `rotation` (3 rows of `R`),
/// `translation` (metres), `reprojection_error_px`, `rotation_sigma_rad` and
/// `translation_sigma_m` (1-σ about and along the camera's axes), in the solution's
/// ``PoseSolution/convention``.
extension PoseSolution: Encodable {
  private enum Keys: String, CodingKey {
    case rotation, translation
    case reprojectionError = "reprojection_error_px"
    case rotationSigma = "rotation_sigma_rad"
    case translationSigma = "translation_sigma_m"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    let r = rotation
    try c.encode((0..<3).map { row in [r[0, row], r[1, row], r[2, row]] }, forKey: .rotation)
    try c.encode(translation, forKey: .translation)
    try c.encode(reprojectionError, forKey: .reprojectionError)
    try c.encode(rotationSigma, forKey: .rotationSigma)
    try c.encode(translationSigma, forKey: .translationSigma)
  }
}

/// Both poses of a marker as `arscene pose marker` prints them: `solutions` (best first) and
/// `ambiguous`.
extension MarkerPose: Encodable {
  private enum Keys: String, CodingKey { case solutions, ambiguous }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(solutions, forKey: .solutions)
    try c.encode(ambiguous, forKey: .ambiguous)
  }
}
