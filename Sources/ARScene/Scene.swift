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
  /// Named points of the objects (`objects[i].points`), placed in the world: tap targets.
  public var targets: [SceneTarget] = []
  /// The objects' own models (no point markers), in file order: what occludes taps.
  public var models: [DrawCall] = []

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
    do { file = try JSONDecoder().decode(SceneFile.self, from: Data(bytes)) } catch {
      throw SceneError(decoding: error, path: path)
    }
    return try SceneResolver(path: path, file: file).resolve(width: width, height: height)
  }
}

/// A named point of a scene object, placed in the world.
public struct SceneTarget: Sendable, Equatable {
  /// The point's code (`LI4`).
  public var code: String
  /// Its full name and location text, if the point file has them.
  public var name: String?
  public var location: String?
  /// The centre in world metres.
  public var center: SIMD3<Double>
  /// The radius in world metres.
  public var radius: Double
  /// The index of the object it belongs to.
  public var object: Int
}
