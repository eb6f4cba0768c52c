import ARFiles
import ARMath
import Foundation

/// The bytes a glTF URI names: a `data:` URI's base64 content, or a file relative to the asset
/// (percent-encoded, as the specification writes relative URIs).
enum GLTFURI {
  static func bytes(_ uri: String, relativeTo asset: String, pointer: String, assetPath: String)
    throws(GLTFError)
    -> [UInt8]
  {
    if uri.hasPrefix("data:") {
      guard let comma = uri.firstIndex(of: ","), uri[..<comma].hasSuffix(";base64"),
        let data = Data(base64Encoded: String(uri[uri.index(after: comma)...]))
      else {
        throw GLTFError(path: assetPath, pointer: pointer, reason: "a data: URI that is not base64")
      }
      return [UInt8](data)
    }
    let file = path(uri, relativeTo: asset)
    guard let file else {
      throw GLTFError(
        path: assetPath, pointer: pointer, reason: "'\(uri.quotedForMessage)' is no file ARScene reads")
    }
    do { return try FileIO.read(file) } catch {
      throw GLTFError(path: assetPath, pointer: pointer, reason: "'\(uri.quotedForMessage)': \(error.reason)")
    }
  }

  /// The file a relative URI names beside `asset`, percent-decoded; nil for an absolute URI
  /// with a scheme (http:, file:), which an asset on disk should not need.
  static func path(_ uri: String, relativeTo asset: String) -> String? {
    guard !uri.contains("://"), let decoded = uri.removingPercentEncoding, !decoded.isEmpty else {
      return nil
    }
    if decoded.hasPrefix("/") { return decoded }
    let folder = (asset as NSString).deletingLastPathComponent
    return folder.isEmpty ? decoded : folder + "/" + decoded
  }
}
