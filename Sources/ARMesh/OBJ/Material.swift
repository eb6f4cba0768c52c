/// A surface material as MTL describes it. Colours are linear RGB as written in the file (MTL
/// colours are conventionally treated as linear reflectances).
public struct Material: Hashable, Sendable {
  /// The `newmtl` name.
  public var name: String
  /// `Ka`: ambient reflectance.
  public var ambient: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Kd`: diffuse reflectance (base colour).
  public var diffuse: SIMD3<Float> = SIMD3(0.8, 0.8, 0.8)
  /// `Ks`: specular reflectance.
  public var specular: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Ke`: emission.
  public var emissive: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `Ns`: Phong specular exponent, 0…1000.
  public var shininess: Float = 10
  /// `d` (or `1 − Tr`): opacity, 1 = opaque.
  public var opacity: Float = 1
  /// `Ni`: index of refraction.
  public var refractionIndex: Float = 1
  /// `illum`: the illumination model number (0 colour only, 1 diffuse, 2 diffuse + specular, …).
  public var illuminationModel: Int = 2
  /// `map_Kd`: diffuse (base colour) texture.
  public var diffuseTexture: TextureReference? = nil
  /// `map_d`: opacity texture.
  public var opacityTexture: TextureReference? = nil
  /// `map_Bump`, `bump` or `norm`: bump or normal map.
  public var bumpTexture: TextureReference? = nil
  /// `map_Ks`: specular texture.
  public var specularTexture: TextureReference? = nil
  /// `map_Ke`: emissive texture.
  public var emissiveTexture: TextureReference? = nil

  /// A material with MTL's defaults and the given name.
  public init(name: String) { self.name = name }

  /// The material used where none is given, or as the lenient fallback for a missing one.
  public static let fallback = Material(name: "default")
}

/// A texture map and its MTL options (`-o`, `-s`, `-clamp`, `-bm`, `-imfchan`, …).
public struct TextureReference: Hashable, Sendable {
  /// The image path, resolved against the MTL file's directory.
  public var path: String
  /// `-o u v w`: offset of the texture coordinates.
  public var offset: SIMD3<Float> = SIMD3(0, 0, 0)
  /// `-s u v w`: scale of the texture coordinates.
  public var scale: SIMD3<Float> = SIMD3(1, 1, 1)
  /// `-clamp on`: clamp coordinates to [0, 1] instead of repeating.
  public var clamp: Bool = false
  /// `-bm`: bump multiplier.
  public var bumpMultiplier: Float = 1
  /// `-imfchan r|g|b|m|l|z`: the channel a scalar texture reads.
  public var channel: Character? = nil
  /// `-blendu`, `-blendv`: texture blending in u and v.
  public var blend: (u: Bool, v: Bool) = (true, true)
  /// Where the map was declared (`file.mtl`, line), for messages; not part of equality.
  public var declaredIn: (path: String, line: Int) = ("", 0)

  public init(path: String) { self.path = path }

  public static func == (a: Self, b: Self) -> Bool {
    a.path == b.path && a.offset == b.offset && a.scale == b.scale && a.clamp == b.clamp
      && a.bumpMultiplier == b.bumpMultiplier && a.channel == b.channel && a.blend == b.blend
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(offset)
    hasher.combine(scale)
  }
}
