/// Why LZFSE-compressed bytes cannot be decoded: the byte offset in the compressed stream where
/// decoding stopped and the reason.
package struct LZFSEError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where in the compressed bytes, from 0.
  package var offset: Int
  /// What was wrong there.
  package var reason: String

  package init(at offset: Int, _ reason: String) { (self.offset, self.reason) = (offset, reason) }

  package var description: String { "LZFSE data at byte \(offset): \(reason)" }
}
