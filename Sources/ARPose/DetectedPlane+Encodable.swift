import ARMath

/// A detected plane as `arscene plane detect` prints it (docs: the CLI's plane contract):
/// `normal`, `offset` (metres), `centroid`, `inliers` (a count), `classification`, `rms_m`,
/// `hull` (world points, metres) and `extent` (`center`, `axis_x`, `axis_y`, `width`,
/// `length`, metres).
extension DetectedPlane: Encodable {
  private enum Keys: String, CodingKey {
    case normal, offset, centroid, inliers, classification, hull, extent
    case rms = "rms_m"
  }
  private enum ExtentKeys: String, CodingKey {
    case center, width, length
    case axisX = "axis_x", axisY = "axis_y"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(normal, forKey: .normal)
    try c.encode(offset, forKey: .offset)
    try c.encode(centroid, forKey: .centroid)
    try c.encode(inliers.count, forKey: .inliers)
    try c.encode(classification.rawValue, forKey: .classification)
    try c.encode(rms, forKey: .rms)
    try c.encode(hull, forKey: .hull)
    var extent = c.nestedContainer(keyedBy: ExtentKeys.self, forKey: .extent)
    try extent.encode(extentCenter, forKey: .center)
    try extent.encode(axisX, forKey: .axisX)
    try extent.encode(axisY, forKey: .axisY)
    try extent.encode(width, forKey: .width)
    try extent.encode(length, forKey: .length)
  }
}
