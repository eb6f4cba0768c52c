import ARImage
import ARMesh

/// What a draw call prepared for shading, exposed to cross-checks against other renderers
/// (`Tools/crosscheck-llvmpipe` hands it to Mesa, so that both sides sample the same texels):
/// not part of the public API.
extension DrawCall {
  /// How a material's alpha is used: fully opaque, cut out at one half, or blended over what
  /// is behind (drawn last, back to front).
  @_spi(Oracles) public enum AlphaUse: Sendable { case opaque, cutOut, blended }

  /// How material `m` (an index into ``mesh``'s materials) uses alpha.
  @_spi(Oracles) public func alphaUse(ofMaterial m: Int) -> AlphaUse {
    switch materials[m].alphaMode {
    case .opaque: .opaque
    case .mask: .cutOut
    case .blend: .blended
    }
  }

  /// Material `m`'s diffuse texture (`map_Kd`) as the sampler reads it: each mip level in
  /// linear light, rows top to bottom, the base level first; nil without one.
  @_spi(Oracles) public func diffuseTextureLevels(ofMaterial m: Int) -> [LinearImage]? {
    materials[m].texture?.linearLevels
  }

  /// Material `m`'s opacity texture (`map_d`, its red channel used) as the sampler reads it;
  /// see ``diffuseTextureLevels(ofMaterial:)``.
  @_spi(Oracles) public func opacityTextureLevels(ofMaterial m: Int) -> [LinearImage]? {
    materials[m].opacityTexture?.linearLevels
  }
}
