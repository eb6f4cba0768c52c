import ARCRS
import ARScene

extension Scene {
  /// Reads a scene file as every command does: models placed in a projected CRS convert
  /// through PROJ (ARCRS).
  static func read(path: String, width: Int? = nil, height: Int? = nil) throws(SceneError) -> Scene {
    try load(path: path, width: width, height: height, projection: CoordinateOperation.projectionToWGS84)
  }
}
