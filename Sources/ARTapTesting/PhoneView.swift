import ARHit
import ARMath

/// A phone showing a ``TapScene``: where its targets appear on screen, and what a tap selects.
/// Screen positions are UIKit points in the view, top-left origin.
public struct PhoneView: Sendable {
  /// The scene seen.
  public let scene: TapScene
  /// The hit tester behind the view (camera, viewport, targets and occluder).
  public let tester: TapHitTester

  /// Where target `code`'s centre shows in the view (points), or nil when it is behind the
  /// camera. The point may lie outside the view.
  public func screenPoint(of code: String) throws(TapSceneError) -> SIMD2<Double>? {
    tester.camera.tapPoint(forWorldPoint: try scene.target(code).sphere.center)?.point
  }

  /// What a tap at `point` (view points) selects under `policy`.
  public func tap(_ point: SIMD2<Double>, policy: TapPolicy = .standard) throws(TapSceneError) -> TapResult {
    do { return try tester.hitTest(tap: point, policy: policy) } catch { throw .hit(error) }
  }

  /// What a tap selects on target `code`'s centre, moved by `offset` points (a finger's error).
  ///
  /// - Throws: ``TapSceneError/notInView(_:)`` when the target is behind the camera or off screen.
  public func tap(
    on code: String, offset: SIMD2<Double> = .zero, policy: TapPolicy = .standard
  ) throws(TapSceneError) -> TapResult {
    guard let centre = try screenPoint(of: code), tester.camera.viewport.contains(centre + offset) else {
      throw .notInView(code)
    }
    return try tap(centre + offset, policy: policy)
  }
}

extension TapResult {
  /// How the tap judged target `code`: accepted, or why not (`TapVerdict.explanation`).
  public func verdict(for code: String) -> TapVerdict? {
    candidates.first { $0.name == code }?.verdict
  }
}
