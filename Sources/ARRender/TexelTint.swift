import ARImage
import ARMath
import ARMesh

/// What the sampler does to each filtered colour `t` before writing it: `light · (base · t) +
/// offset`, so that a shader whose colour is just that (a textured surface in ambient light)
/// takes it straight from the sampler, not from a second pass over the batch. The same
/// arithmetic as that pass, so the same bits.
struct TexelTint {
  let base: SIMD4<Float>, light: SIMD4<Float>, offset: SIMD4<Float>
  /// Whether the tint keeps the colour and makes alpha 1 (base and light 1, offset 0, alpha
  /// `0 · a + 1`): one `max` with `(0, 0, 0, 1)` then gives the same bits, for the colours
  /// the filter gives (finite, in [+0, 1]). An opaque texture in white ambient light (a
  /// model with its lighting baked into its texture) is drawn so.
  let keepsColorOpaque: Bool

  init(base: SIMD4<Float>, light: SIMD4<Float>, offset: SIMD4<Float>) {
    (self.base, self.light, self.offset) = (base, light, offset)
    let one = SIMD3<Float>(repeating: 1)
    keepsColorOpaque =
      base[SIMD3(0, 1, 2)] == one && light == SIMD4(one, 0) && offset == SIMD4(0, 0, 0, 1) && base.w.isFinite
  }

  /// Leaves colours as they are (`1 · (1 · t) + 0 = t` for the finite, non-negative colours
  /// the filter gives).
  static let none = TexelTint(base: SIMD4(repeating: 1), light: SIMD4(repeating: 1), offset: .zero)

  /// Writes the four colours `colors`, tinted, at `out`.
  @inline(__always)
  func write(_ colors: FourColors, to out: UnsafeMutablePointer<SIMD4<Float>>) {
    if keepsColorOpaque { return Self.writeOpaque(colors, to: out) }
    @inline(__always) func tinted(_ t: SIMD4<Float>) -> SIMD4<Float> { light * (base * t) + offset }
    (out[0], out[1], out[2], out[3]) = (
      tinted(colors.0), tinted(colors.1), tinted(colors.2), tinted(colors.3)
    )
  }
}

extension TexelTint {
  /// Writes the four colours `colors` with alpha 1 at `out`: what a tint that
  /// ``keepsColorOpaque`` writes, the branch left to the caller's loop.
  @inline(__always)
  static func writeOpaque(_ colors: FourColors, to out: UnsafeMutablePointer<SIMD4<Float>>) {
    let alpha = SIMD4<Float>(0, 0, 0, 1)
    (out[0], out[1], out[2], out[3]) = (
      LaneMath.larger(colors.0, alpha), LaneMath.larger(colors.1, alpha), LaneMath.larger(colors.2, alpha),
      LaneMath.larger(colors.3, alpha)
    )
  }
}
