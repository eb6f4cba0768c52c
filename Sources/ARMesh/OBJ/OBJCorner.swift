import ARMath

/// One corner of an OBJ face, line or point: 0-based indices into the model's arrays, or −1
/// where the statement gave none (`v//vn` has no texture coordinate).
@frozen
public struct OBJCorner: Hashable, Sendable {
  /// Index into ``OBJModel/positions``.
  public var position: Int32
  /// Index into ``OBJModel/texcoords``, or −1.
  public var texcoord: Int32
  /// Index into ``OBJModel/normals``, or −1.
  public var normal: Int32

  /// A corner of these 0-based indices; −1 where the face gives none.
  @inlinable
  public init(position: Int32, texcoord: Int32 = -1, normal: Int32 = -1) {
    self.position = position
    self.texcoord = texcoord
    self.normal = normal
  }
}
