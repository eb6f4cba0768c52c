import ARMath

extension LocalTangentFrame {
  /// The rotation from the local world frame (x east, y up, z south) at this frame's origin to
  /// the one at `position`: the meridian convergence and the tilt of the vertical between them.
  /// Identity where `position` cannot be a frame's origin (a pole, a non-finite coordinate).
  public func worldRotation(to position: GeodeticCoordinate) -> Quaternion<Double> {
    guard let there = try? LocalTangentFrame(origin: position, ellipsoid: ellipsoid) else { return .identity }
    // Columns: this frame's world axes (east, up, south) seen in the frame at `position`.
    func seen(_ enuDirection: SIMD3<Double>) -> SIMD3<Double> {
      let ecef = ecefDirection(enu: enuDirection)
      return WorldFrame.world(enu: there.enu(ecef: there.originECEF + ecef))
    }
    let m = Matrix3(seen([1, 0, 0]), seen([0, 0, 1]), seen([0, -1, 0]))
    return RigidTransform<Double>(rotationMatrix: m, translation: .zero).rotation
  }
}
