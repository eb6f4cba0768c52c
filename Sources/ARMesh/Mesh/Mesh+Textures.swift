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
    removeTextures(at: Set(texturePaths))
  }

  /// Drops the textures whose files are among `paths` (see ``texturePaths``), keeping the
  /// others and every constant: a texture that could not be decoded, its input drawn with its
  /// constant.
  public mutating func removeTextures(at paths: Set<String>) {
    func keep(_ texture: TextureReference?) -> TextureReference? {
      texture.flatMap { paths.contains($0.path) ? nil : $0 }
    }
    diffuseTexture = keep(diffuseTexture)
    opacityTexture = keep(opacityTexture)
    emissiveTexture = keep(emissiveTexture)
    metallicRoughnessTexture = keep(metallicRoughnessTexture)
    metallicTexture = keep(metallicTexture)
    roughnessTexture = keep(roughnessTexture)
    normalTexture = keep(normalTexture)
    occlusionTexture = keep(occlusionTexture)
  }
}
