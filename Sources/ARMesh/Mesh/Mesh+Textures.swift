extension Mesh {
  /// The files of the textures the renderer samples (diffuse `map_Kd`, opacity `map_d`, emissive
  /// `map_Ke`; glTF's metallic-roughness, normal and occlusion maps; USD's metallic and
  /// roughness maps of their own), in material order, each once.
  public var texturePaths: [String] {
    var seen = Set<String>()
    return materials.flatMap(\.texturePaths).filter { seen.insert($0).inserted }
  }
}

extension Material {
  /// The files of the textures the renderer samples from this material (see
  /// ``Mesh/texturePaths``), in that order.
  public var texturePaths: [String] {
    [
      diffuseTexture?.path, opacityTexture?.path, emissiveTexture?.path, metallicRoughnessTexture?.path,
      normalTexture?.path, occlusionTexture?.path, metallicTexture?.path, roughnessTexture?.path,
    ]
    .compactMap { $0 }
  }

  /// Drops every texture the renderer would sample (see ``Mesh/texturePaths``), keeping the
  /// constant colours and factors: for drawing a model without decoding its images.
  public mutating func removeTextures() {
    diffuseTexture = nil
    opacityTexture = nil
    emissiveTexture = nil
    metallicRoughnessTexture = nil
    metallicTexture = nil
    roughnessTexture = nil
    normalTexture = nil
    occlusionTexture = nil
  }
}
