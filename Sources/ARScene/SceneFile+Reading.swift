import ARFiles
import Foundation

extension SceneFile {
  /// Reads and decodes the scene file at `path`, refusing unknown fields; nothing it names
  /// (models, images, point clouds) is loaded.
  ///
  /// - Throws: ``SceneError`` naming the file and the JSON field.
  public static func read(path: String) throws(SceneError) -> SceneFile {
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    if let json = try? JSONSerialization.jsonObject(with: Data(bytes)),
      let (field, reason) = firstUnknownField(json)
    {
      throw .invalidField(path: path, field: field, reason: reason)
    }
    do { return try JSONDecoder().decode(SceneFile.self, from: Data(bytes)) } catch {
      throw SceneError(decoding: error, path: path, bytes: bytes)
    }
  }
}
