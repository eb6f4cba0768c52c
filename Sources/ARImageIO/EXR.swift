import ARImage
import CImageCodecs
import Foundation

/// OpenEXR images read through OpenEXR's own C core (libOpenEXRCore): every compression the
/// format defines, half, float and uint channels, scanline files. ARScene reads depth from EXR
/// (Record3D's EXR export), one channel as 32-bit floats.
public enum EXR {
  /// One channel of the EXR in `bytes`, as floats, rows top to bottom: the file's only channel,
  /// else the first of `channels` it has (depth writers name theirs `Z`, `R` or `Y`).
  /// - Parameters:
  ///   - bytes: The whole file (OpenEXR reads it from memory, never from a path of its own).
  ///   - channels: Names to look for, in order, when the file has several.
  ///   - path: Named in errors only.
  /// - Throws: ``ImageError/invalid(path:format:reason:)``: not an EXR, a damaged header or
  ///   chunk, tiled or deep storage, a subsampled channel, no channel of those names (listing
  ///   the file's), or more than `ImageLimits.maximumPixels` pixels.
  public static func decodeChannel(
    _ bytes: [UInt8], preferring channels: [String] = ["Z", "R", "Y"], path: String? = nil
  ) throws(ImageError) -> DepthImage {
    var message = [CChar](repeating: 0, count: 320)
    var image = arscene_image()
    arscene_image_set_max_pixels(UInt64(ImageLimits.maximumPixels))
    let names = channels.map { strdup($0) }
    defer { names.forEach { free($0) } }
    let status = bytes.withUnsafeBufferPointer { file in
      names.map { UnsafePointer($0) }.withUnsafeBufferPointer { preferred in
        arscene_exr_decode_channel(
          file.baseAddress, file.count, preferred.baseAddress, Int32(preferred.count), &image, &message,
          message.count)
      }
    }
    defer { arscene_image_free(&image) }
    guard status == 0 else { throw .invalid(path: path, format: "EXR", reason: codecMessage(message)) }
    let count = Int(image.width) * Int(image.height)
    let values = Array(
      UnsafeBufferPointer(start: image.pixels.assumingMemoryBound(to: Float.self), count: count))
    return DepthImage(width: Int(image.width), height: Int(image.height), pixels: values)
  }
}
