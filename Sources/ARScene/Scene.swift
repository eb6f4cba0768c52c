import ARAssets
import ARMath
import ARRender
import Foundation

/// A scene file loaded and checked: models read, camera and lights resolved, ready to render.
public struct Scene: @unchecked Sendable {
  /// The scene file's path.
  public var path: String
  /// The file as written.
  public var file: SceneFile
  /// The camera at the output size.
  public var camera: RenderCamera
  /// The lights.
  public var lighting: Lighting
  /// The models, placed.
  public var draws: [DrawCall]
  /// The camera frame behind the models, in linear light at the output size, if any.
  public var background: LinearImage?
  /// The background colour when there is no frame.
  public var backgroundColor: SIMD4<Float>

  /// Reads and checks a scene file, loading every model and texture it names.
  ///
  /// - Parameters:
  ///   - width, height: Override the file's output size (the intrinsics scale with it).
  /// - Throws: ``SceneError`` naming the file and the JSON field.
  public static func load(path: String, width: Int? = nil, height: Int? = nil) throws(SceneError) -> Scene {
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch { throw .unreadable(path: path, reason: error.description) }
    let file: SceneFile
    if let json = try? JSONSerialization.jsonObject(with: Data(bytes)),
      let (field, reason) = SceneFile.firstUnknownField(json)
    {
      throw .invalidField(path: path, field: field, reason: reason)
    }
    do {
      file = try JSONDecoder().decode(SceneFile.self, from: Data(bytes))
    } catch let DecodingError.keyNotFound(key, context) {
      throw .invalidField(path: path, field: fieldPath(context.codingPath + [key]), reason: "missing")
    } catch let DecodingError.typeMismatch(_, context) {
      throw .invalidField(path: path, field: fieldPath(context.codingPath), reason: context.debugDescription)
    } catch let DecodingError.valueNotFound(_, context) {
      throw .invalidField(path: path, field: fieldPath(context.codingPath), reason: "is null")
    } catch let DecodingError.dataCorrupted(context) {
      throw .invalidJSON(
        path: path, reason: context.underlyingError.map { "\($0)" } ?? context.debugDescription)
    } catch {
      throw .invalidJSON(path: path, reason: "\(error)")
    }
    return try SceneResolver(path: path, file: file).resolve(width: width, height: height)
  }

  static func fieldPath(_ keys: [any CodingKey]) -> String {
    keys.reduce("") { path, key in
      if let index = key.intValue { return path + "[\(index)]" }
      return path.isEmpty ? key.stringValue : path + "." + key.stringValue
    }
  }
}
