import ARImage
import ARImageIO
import ARMesh

/// The images a model's materials sample, decoded for the renderer: what a scene's objects and
/// `render --model --shading materials` draw with.
public enum TextureImages {
  /// The image at texture path `path` (one of `Mesh.texturePaths`) decoded to 8-bit
  /// sRGB RGBA: from `embedded` (the bytes inside the model's file or package, by path) where it
  /// is there, else from the file at `path`, which the model's reader has already confined to
  /// the model's folder.
  ///
  /// - Throws: `ImageError` for an image that cannot be read or decoded, or is too large.
  public static func decode(_ path: String, embedded: [String: [UInt8]]) throws(ImageError) -> RGBA8Image {
    if let bytes = embedded[path] { return try ImageFile.decodeRGBA8(bytes, name: path) }
    return try ImageFile.readRGBA8(path)
  }
}
