import ARMath
import ARMesh

/// The lights of a lit scene. Colours are linear RGB times intensity.
public struct Lighting: Sendable {
  /// Light arriving from everywhere.
  public var ambient: SIMD3<Float>
  /// Directional lights: `direction` is the way the light travels (from the light into the
  /// scene), world frame.
  public var directional: [(direction: SIMD3<Float>, color: SIMD3<Float>)]
  /// Point lights at world positions (metres), with inverse-square falloff.
  public var point: [(position: SIMD3<Float>, color: SIMD3<Float>)]

  /// Lighting of these lights.
  public init(
    ambient: SIMD3<Float> = SIMD3(repeating: 0.2),
    directional: [(direction: SIMD3<Float>, color: SIMD3<Float>)] = [
      (SIMD3(-0.4, -1, -0.3), SIMD3(repeating: 1))
    ],
    point: [(position: SIMD3<Float>, color: SIMD3<Float>)] = []
  ) {
    self.ambient = ambient
    self.directional = directional
    self.point = point
  }

  /// The same lights in the world shifted to `origin` (point lights moved by it, in `Double`).
  func relative(to origin: SIMD3<Double>) -> Lighting {
    guard origin != .zero else { return self }
    var shifted = self
    shifted.point = point.map { (SIMD3<Float>(SIMD3<Double>($0.position) - origin), $0.color) }
    return shifted
  }
}
