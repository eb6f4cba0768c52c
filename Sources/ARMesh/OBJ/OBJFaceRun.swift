import ARMath

/// The state in force from face ``firstFace`` on, until the next run: which object, group,
/// material and smoothing group the faces belong to.
public struct OBJFaceRun: Hashable, Sendable {
  /// The first face (index into the model's faces) of the run.
  public var firstFace: Int
  /// Index into ``OBJModel/objectNames``, or −1 before any `o`.
  public var object: Int
  /// Index into ``OBJModel/groupNames``, or −1 before any `g`.
  public var group: Int
  /// Index into ``OBJModel/materialNames`` (the `usemtl` names), or −1 before any `usemtl`.
  public var material: Int
  /// The smoothing group; 0 means off (`s off`, `s 0`, or no `s` yet: the OBJ default).
  public var smoothingGroup: UInt32
}
