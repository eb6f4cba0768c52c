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
    let file = try path(uri, relativeTo: asset, pointer: pointer)
    do { return try FileIO.read(file) } catch {
      throw GLTFError(path: assetPath, pointer: pointer, reason: "'\(uri.quotedForMessage)': \(error.reason)")
    }
  }

  /// The file a relative URI names beside `asset`, percent-decoded and confined to the asset's
  /// folder (``FileReferences``): an absolute path elsewhere, `..` or `..%2F` that climbs out,
  /// and a URI with a scheme (http:, file:), which an asset on disk should not need, are errors
  /// naming the URI at `pointer`.
  static func path(_ uri: String, relativeTo asset: String, pointer: String) throws(GLTFError) -> String {
    guard !uri.contains("://"), !uri.lowercased().hasPrefix("file:"),
      let decoded = uri.removingPercentEncoding,
      !decoded.isEmpty
    else {
      throw GLTFError(
        path: asset, pointer: pointer, reason: "'\(uri.quotedForMessage)' is no file ARScene reads")
    }
    do { return try FileReferences.resolve(decoded, in: asset) } catch {
      throw GLTFError(path: asset, pointer: pointer, reason: error.explanation)
    }
  }
}
