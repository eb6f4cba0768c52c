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
  /// Mirrored repeat along u and along v (glTF's `MIRRORED_REPEAT`, 33648): every other tile
  /// drawn mirrored. Ignored where ``clamp`` holds.
  public var mirrored: (u: Bool, v: Bool) = (false, false)
  /// `-bm`: bump multiplier.
  public var bumpMultiplier: Float = 1
  /// `-imfchan r|g|b|m|l|z`: the channel a scalar texture reads.
  public var channel: Character? = nil
  /// `-blendu`, `-blendv`: texture blending in u and v.
  public var blend: (u: Bool, v: Bool) = (true, true)
  /// The texture-coordinate set that samples it: 0 the mesh's ``Mesh/texcoords``, 1 its
  /// ``Mesh/texcoords1`` (glTF's `texCoord` of a second `TEXCOORD_n`).
  public var texCoord: Int = 0
  /// Where the map was declared (`file.mtl`, line), for messages; not part of equality.
  public var declaredIn: (path: String, line: Int) = ("", 0)

  /// A texture at `path`, with the defaults above.
  public init(path: String) { self.path = path }

  public static func == (a: Self, b: Self) -> Bool {
    a.path == b.path && a.offset == b.offset && a.scale == b.scale && a.clamp == b.clamp
      && a.mirrored == b.mirrored
      && a.bumpMultiplier == b.bumpMultiplier && a.channel == b.channel && a.blend == b.blend
      && a.texCoord == b.texCoord
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(path)
    hasher.combine(offset)
    hasher.combine(scale)
  }
}
