import ARMath

/// ARKit's tracking state (`ARCamera.TrackingState`), with the reason when limited.
public enum TrackingState: Sendable, Equatable {
  /// Tracking normally.
  case normal
  /// No tracking: the pose is not to be used.
  case notAvailable
  /// Limited, with ARKit's reason (`initializing`, `excessiveMotion`, `insufficientFeatures`,
  /// `relocalizing`) or another source's word for it.
  case limited(reason: String)
}
