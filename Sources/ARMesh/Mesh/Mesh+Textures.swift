extension Mesh {
  /// The files of the textures the renderer samples (diffuse `map_Kd`, opacity `map_d`, glTF's
  /// metallic-roughness), in material order, each once.
  public var texturePaths: [String] {
    var seen = Set<String>()
    return materials.flatMap {
      [$0.diffuseTexture?.path, $0.opacityTexture?.path, $0.metallicRoughnessTexture?.path]
    }
    .compactMap { $0 }.filter { seen.insert($0).inserted }
  }
}
