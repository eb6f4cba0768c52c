import ARGeo
import ARMath

extension SessionSimulator {
  /// The platform's geo pose of the camera at `now`: the truth with white errors of the model's
  /// σ, claiming 68% accuracies ``PhoneErrorModel/geoPoseOptimism`` times smaller than the
  /// errors' own. Drawn from `random`, a generator of its own, so that the other sensors' draws
  /// are the same with or without geo poses.
  func geoPose(
    _ now: TrueState, time: Double, optimism: Double, random: inout SplitMix64
  ) -> GeoPoseSample {
    let m = model
    let error = SIMD3(
      m.geoPoseHorizontalSigma * random.gaussian(), m.geoPoseHorizontalSigma * random.gaussian(),
      m.geoPoseVerticalSigma * random.gaussian())
    let yawError = m.geoPoseYawSigmaDegrees * random.gaussian()
    let coordinate = site.frame.geodetic(enu: WorldFrame.enu(world: now.position) + error)
    let here = site.frame.worldRotation(to: coordinate)
    // A turn about up by −δ adds δ to the compass heading (clockwise from north).
    let turn = Quaternion<Double>(angle: .degrees(-yawError), axis: [0, 1, 0])
    return GeoPoseSample(
      time: time, latitude: coordinate.latitudeDegrees, longitude: coordinate.longitudeDegrees,
      height: coordinate.height, localFromCamera: (turn * here * now.rotation).normalized(),
      horizontalAccuracy: PhoneErrorModel.radius68PerSigma * m.geoPoseHorizontalSigma / optimism,
      verticalAccuracy: PhoneErrorModel.halfInterval68PerSigma * m.geoPoseVerticalSigma / optimism,
      yawAccuracyDegrees: PhoneErrorModel.halfInterval68PerSigma * m.geoPoseYawSigmaDegrees / optimism)
  }
}
