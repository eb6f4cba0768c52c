import ARMath
import ARMesh

/// How fragments get their colour.
public enum ShadingMode: Sendable {
  /// Every covered pixel white, nothing else: coverage tests and GL cross-checks.
  case unlit
  /// Grey `round(255·max(0, n·l))` with `n` the flat face normal (counter-clockwise winding) and
  /// `l` the unit vector given (pointing towards the light), in world space; no sRGB encoding.
  /// Meant for pixel-exact comparison with a plain OpenGL render.
  case lambert(towardsLight: SIMD3<Float>)
  /// Blinn–Phong in linear light with materials, textures and vertex colours, sRGB output.
  case lit(Lighting)
}
