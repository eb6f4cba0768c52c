/// The inputs of a MaterialX surface node ARScene draws, by their names on that node, with the
/// node's own fallbacks: each surface spells the same metallic-roughness model its own way.
struct USDMaterialXSurfaceInputs {
  /// The base colour and its fallback.
  var diffuse: String, diffuseFallback: SIMD3<Float>
  /// A weight multiplying the base colour (Standard Surface's `base`), with its fallback.
  var diffuseWeight: (name: String, fallback: Double)? = nil
  /// The emission colour and its fallback, and a weight multiplying it (Standard Surface's
  /// `emission`, fallback 0: no emission until it is set); nil for an unlit surface.
  var emissive: String?, emissiveFallback: SIMD3<Float> = .zero
  var emissiveWeight: (name: String, fallback: Double)? = nil
  /// Metalness and perceptual roughness, with their fallbacks (nil names for an unlit surface).
  var metallic: String?, metallicFallback: Double, roughness: String?, roughnessFallback: Double
  /// The ambient-occlusion input, where the surface has one.
  var occlusion: String?
  /// The tangent-space normal (nil for an unlit surface).
  var normal: String?
  /// The opacity, a number or (Standard Surface's) a colour whose mean is drawn, and the alpha
  /// cutoff input, where the surface has one.
  var opacity: String, opacityThreshold: String?
  /// glTF's alpha mode (an integer input: 0 opaque, 1 mask, 2 blend) and its cutoff input with
  /// the cutoff's fallback, where the surface has them.
  var alphaMode: (mode: String, cutoff: String, cutoffFallback: Double)? = nil
  /// Whether the surface is unlit: its base colour drawn as it is, whatever the lights.
  var isUnlit = false

  /// MaterialX's `ND_UsdPreviewSurface_surfaceshader`: UsdPreviewSurface's inputs and fallbacks.
  static let preview = USDMaterialXSurfaceInputs(
    diffuse: "diffuseColor", diffuseFallback: SIMD3(repeating: 0.18), emissive: "emissiveColor",
    metallic: "metallic", metallicFallback: 0, roughness: "roughness", roughnessFallback: 0.5,
    occlusion: "occlusion", normal: "normal", opacity: "opacity", opacityThreshold: "opacityThreshold")

  /// RealityKit's `ND_realitykit_pbr_surfaceshader` (and `_2_0`).
  static let realityKit = USDMaterialXSurfaceInputs(
    diffuse: "baseColor", diffuseFallback: SIMD3(repeating: 0.18), emissive: "emissiveColor",
    metallic: "metallic", metallicFallback: 0, roughness: "roughness", roughnessFallback: 0.5,
    occlusion: "ambientOcclusion", normal: "normal", opacity: "opacity", opacityThreshold: "opacityThreshold")

  /// MaterialX's Autodesk Standard Surface (`ND_standard_surface_surfaceshader`), by the
  /// specification's defaults: `base` 1 × `base_color` 0.8, `metalness` 0,
  /// `specular_roughness` 0.2, `emission` 0 × `emission_color` 1, `opacity` white. Its other
  /// lobes (coat, sheen, transmission, subsurface) are not drawn.
  static let standardSurface = USDMaterialXSurfaceInputs(
    diffuse: "base_color", diffuseFallback: SIMD3(repeating: 0.8), diffuseWeight: ("base", 1),
    emissive: "emission_color", emissiveFallback: SIMD3(repeating: 1), emissiveWeight: ("emission", 0),
    metallic: "metalness", metallicFallback: 0,
    roughness: "specular_roughness", roughnessFallback: 0.2, occlusion: nil, normal: "normal",
    opacity: "opacity", opacityThreshold: nil)

  /// MaterialX's OpenPBR Surface (`ND_open_pbr_surface_surfaceshader`, the surface Blender's
  /// MaterialX export writes), by its node definition's defaults: `base_weight` 1 × `base_color`
  /// 0.8, `base_metalness` 0, `specular_roughness` 0.3, `emission_luminance` 0 ×
  /// `emission_color` 1 (the luminance a weight, as MaterialX's own translation to Standard
  /// Surface passes it), `geometry_opacity` 1, the normal `geometry_normal`. Its coat, fuzz,
  /// thin film, transmission and subsurface are not drawn.
  static let openPBR = USDMaterialXSurfaceInputs(
    diffuse: "base_color", diffuseFallback: SIMD3(repeating: 0.8), diffuseWeight: ("base_weight", 1),
    emissive: "emission_color", emissiveFallback: SIMD3(repeating: 1),
    emissiveWeight: ("emission_luminance", 0), metallic: "base_metalness", metallicFallback: 0,
    roughness: "specular_roughness", roughnessFallback: 0.3, occlusion: nil, normal: "geometry_normal",
    opacity: "geometry_opacity", opacityThreshold: nil)

  /// MaterialX's glTF PBR (`ND_gltf_pbr_surfaceshader`), with glTF's defaults: `base_color` 1,
  /// `metallic` 1, `roughness` 1, `occlusion`, `normal`, `emissive` 0 × `emissive_strength` 1,
  /// and `alpha` as `alpha_mode` says (opaque, cut at `alpha_cutoff` 0.5, or blended). Its
  /// clearcoat, sheen, transmission, iridescence and volume are not drawn.
  static let glTFPBR = USDMaterialXSurfaceInputs(
    diffuse: "base_color", diffuseFallback: SIMD3(repeating: 1), emissive: "emissive",
    emissiveWeight: ("emissive_strength", 1), metallic: "metallic", metallicFallback: 1,
    roughness: "roughness",
    roughnessFallback: 1, occlusion: "occlusion", normal: "normal", opacity: "alpha", opacityThreshold: nil,
    alphaMode: ("alpha_mode", "alpha_cutoff", 0.5))

  /// RealityKit's unlit surface (`ND_realitykit_unlit_surfaceshader`, Reality Composer Pro's
  /// "Unlit Surface"): `color` drawn as it is (white unset, as RealityKit's `UnlitMaterial`),
  /// `opacity` cut at `opacityThreshold`.
  static let realityKitUnlit = USDMaterialXSurfaceInputs(
    diffuse: "color", diffuseFallback: SIMD3(repeating: 1), emissive: nil, metallic: nil, metallicFallback: 0,
    roughness: nil, roughnessFallback: 1, occlusion: nil, normal: nil, opacity: "opacity",
    opacityThreshold: "opacityThreshold", isUnlit: true)

  /// MaterialX's unlit surface (`ND_surface_unlit`): `emission` 1 × `emission_color` 1 drawn as
  /// it is, `opacity` 1. Its transmission is not drawn.
  static let materialXUnlit = USDMaterialXSurfaceInputs(
    diffuse: "emission_color", diffuseFallback: SIMD3(repeating: 1), diffuseWeight: ("emission", 1),
    emissive: nil, metallic: nil, metallicFallback: 0, roughness: nil, roughnessFallback: 1, occlusion: nil,
    normal: nil, opacity: "opacity", opacityThreshold: nil, isUnlit: true)
}
