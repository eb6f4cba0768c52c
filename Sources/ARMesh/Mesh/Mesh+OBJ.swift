import ARMath

extension Mesh {
  /// The renderable mesh of an OBJ model: faces triangulated (concave ones by ear clipping),
  /// vertices unified per distinct (position, texture coordinate, normal) corner, missing normals
  /// computed, and one submesh per run of faces with the same material.
  ///
  /// Normals the file lacks are area-weighted averages of the faces around a position within
  /// the same smoothing group (`s N`); faces with smoothing off (`s off`, `s 0`, or no `s`, the
  /// OBJ default) get their flat face normal.
  ///
  /// - Parameters:
  ///   - obj: The parsed model.
  ///   - library: The materials `usemtl` names resolve to, by name; a name not found, and faces
  ///     before any `usemtl`, use ``Material/fallback``.
  public init(obj: OBJModel, materials library: [Material] = []) {
    self = MeshBuilder(obj: obj, library: library).build()
  }
}
