import ARCRS
import ARScene

extension Scene {
  /// Reads a scene file as every command does: models placed in a projected CRS convert
  /// through PROJ (ARCRS); what reading its models said (``Scene/warnings``) goes to standard
  /// error, so that nothing is drawn otherwise than the files ask without a word.
  static func read(path: String, width: Int? = nil, height: Int? = nil) throws(SceneError) -> Scene {
    let scene = try load(
      path: path, width: width, height: height, projection: CoordinateOperation.projectionToWGS84)
    for warning in scene.warnings { FileHandleOutput.standardError.write("arscene: \(warning)\n") }
    return scene
  }
}
