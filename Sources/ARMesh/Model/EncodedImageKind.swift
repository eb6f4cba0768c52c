/// What an encoded image inside a model is, by its first bytes: what a writer names its file
/// and MIME type when it copies the bytes out unchanged. (ARMesh keeps images encoded; the
/// codecs are ARImageIO's.)
enum EncodedImageKind: Equatable {
  case png, jpeg, ktx2, webp

  /// The kind `bytes` begin as, or nil for none of these.
  init?(_ bytes: [UInt8]) {
    if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
      self = .png
    } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if bytes.starts(with: [0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .ktx2
    } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)),
      bytes[8..<12].elementsEqual("WEBP".utf8)
    {
      self = .webp
    } else {
      return nil
    }
  }

  /// Why bytes of no known kind are not written: a writer would have to guess their type.
  static let unknownReason = "the texture is not a PNG, JPEG, KTX2 or WebP image; its type cannot be named"

  /// The file name extension, without its dot.
  var fileExtension: String {
    switch self {
    case .png: "png"
    case .jpeg: "jpg"
    case .ktx2: "ktx2"
    case .webp: "webp"
    }
  }

  /// The MIME type glTF's `images[].mimeType` names.
  var mimeType: String { "image/" + (self == .jpeg ? "jpeg" : fileExtension) }

  /// The glTF texture extension an image of this kind is read through; nil for PNG and JPEG,
  /// which glTF's core holds.
  var gltfTextureExtension: String? {
    switch self {
    case .png, .jpeg: nil
    case .ktx2: "KHR_texture_basisu"
    case .webp: "EXT_texture_webp"
    }
  }
}
