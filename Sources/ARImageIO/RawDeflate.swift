import CDeflate

/// Raw DEFLATE (RFC 1951) decoding through libdeflate: a zip archive's deflated entries.
package enum RawDeflate {
  /// Why a stream did not inflate.
  package struct Failure: Error, CustomStringConvertible {
    package var description: String
  }

  /// The `size` bytes `compressed` inflates to; anything else (a corrupt stream, one that gives
  /// more or fewer bytes) is a failure.
  package static func inflate(_ compressed: ArraySlice<UInt8>, size: Int) throws(Failure) -> [UInt8] {
    guard let decompressor = libdeflate_alloc_decompressor() else {
      throw Failure(description: "out of memory")
    }
    defer { libdeflate_free_decompressor(decompressor) }
    var output = [UInt8](repeating: 0, count: size)
    var produced = 0
    let result = compressed.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { out in
        libdeflate_deflate_decompress(
          decompressor, input.baseAddress, input.count, out.baseAddress, out.count, &produced)
      }
    }
    guard result == LIBDEFLATE_SUCCESS, produced == size else {
      throw Failure(
        description: result == LIBDEFLATE_SUCCESS ? "\(produced) bytes, not \(size)" : "a corrupt stream")
    }
    return output
  }
}
