import ARImage
import ARMath
import ARMesh

/// One mesh placed in the world, with its textures decoded and mip-mapped: what the renderer
/// draws. Images come decoded (ARImage's `RGBA8Image`), so the renderer links no image codec; the
/// scene layer (`ARScene`) reads the files a mesh's materials name.
public struct DrawCall: @unchecked Sendable {
  /// The mesh (model space). Read-only: the shading materials and textures are made from it
  /// when the draw call is, so a changed mesh needs a new draw call.
  public let mesh: Mesh
  /// Model to world (any invertible affine matrix; normals use its inverse transpose).
  public var worldFromModel: Matrix4<Float>
  /// Skip triangles facing away from the camera. Cut-out and translucent materials are drawn
  /// two-sided regardless, as thin see-through surfaces should be.
  public var cullBackFaces: Bool
  let materials: [ShadingMaterial]
  /// Owns the textures the materials refer to without retaining.
  let textures: [MipmappedTexture]

  /// World from the mesh's vertex positions (offsets from its origin), in `Double`:
  /// ``worldFromModel`` after the translation by `mesh.origin`.
  var worldFromModelOffsets: Matrix4<Double> {
    Matrix4<Double>(worldFromModel) * .translation(mesh.origin)
  }

  /// A draw call for `mesh`, with the images its materials' textures name.
  ///
  /// - Parameters:
  ///   - mesh: The mesh, model space.
  ///   - worldFromModel: Model to world, metres.
  ///   - cullBackFaces: Skip triangles facing away from the camera (see ``cullBackFaces``).
  ///   - textures: Decoded images by their materials' texture path (`TextureReference.path`): one
  ///     for every texture of `mesh.texturePaths`. Others are ignored.
  /// - Throws: ``RenderError/invalidTexture(path:reason:)`` for a texture with no image, or one
  ///   larger than 16384 texels a side (as GPUs commonly limit them).
  public init(
    mesh: Mesh, worldFromModel: Matrix4<Float> = .identity, cullBackFaces: Bool = true,
    textures: [String: RGBA8Image] = [:]
  ) throws(RenderError) {
    self.mesh = mesh
    self.worldFromModel = worldFromModel
    self.cullBackFaces = cullBackFaces
    var materials: [ShadingMaterial] = []
    var owned: [MipmappedTexture] = []
    for m in mesh.materials {
      /// The texture `reference` names, if any, kept alive by the draw call.
      func load(_ reference: TextureReference?, isData: Bool = false) throws(RenderError) -> MipmappedTexture?
      {
        guard let reference else { return nil }
        let texture = try MipmappedTexture(reference, images: textures, isData: isData)
        owned.append(texture)
        return texture
      }
      let texture = try load(m.diffuseTexture), opacity = try load(m.opacityTexture)
      var material = ShadingMaterial(m, texture: texture, opacityTexture: opacity)
      material.emissiveTexture = try load(m.emissiveTexture)?.view
      // The metallic-roughness model's maps; Blinn-Phong (OBJ) draws as it always has.
      if m.metallicRoughness != nil {
        material.metallicRoughnessTexture = try load(m.metallicRoughnessTexture, isData: true)?.view
        material.metallicTexture = try load(m.metallicTexture, isData: true).map {
          ($0.view, ShadingMaterial.channelIndex(m.metallicTexture))
        }
        material.roughnessTexture = try load(m.roughnessTexture, isData: true).map {
          ($0.view, ShadingMaterial.channelIndex(m.roughnessTexture))
        }
        material.normalTexture = try load(m.normalTexture, isData: true)?.view
        material.occlusionTexture = try load(m.occlusionTexture, isData: true)?.view
      }
      material.secondSet = ShadingMaterial.SecondSetMaps(
        emissive: m.emissiveTexture?.texCoord == 1, occlusion: m.occlusionTexture?.texCoord == 1,
        metallicRoughness: m.metallicRoughnessTexture?.texCoord == 1, normal: m.normalTexture?.texCoord == 1)
      materials.append(material)
    }
    self.materials = materials
    self.textures = owned
  }
}
