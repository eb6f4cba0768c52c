extension StringProtocol {
  /// The first occurrence of `needle`, an ASCII text such as `"/{"` or `".primvars:"`, found by
  /// comparing UTF-8 bytes (an ASCII byte never lies inside another character's encoding, so
  /// the range is one of whole characters). Foundation's `range(of:)` and `contains(_:)` bridge
  /// every string to a CFString: over a stage's few thousand keys, a twentieth of a USDZ's
  /// reading on one core. The needle is a literal, read in place.
  func firstASCII(_ needle: StaticString) -> Range<Index>? {
    precondition(needle.isASCII && needle.utf8CodeUnitCount > 0, "an ASCII needle")
    return needle.withUTF8Buffer { pattern in
      let bytes = utf8
      var start = bytes.startIndex
      while let first = bytes[start...].firstIndex(of: pattern[0]) {
        var (i, k) = (first, 0)
        while k < pattern.count, i < bytes.endIndex, bytes[i] == pattern[k] {
          (i, k) = (bytes.index(after: i), k + 1)
        }
        if k == pattern.count { return first..<i }
        start = bytes.index(after: first)
      }
      return nil
    }
  }

  /// Whether `needle`, an ASCII text, occurs (``firstASCII(_:)``).
  func containsASCII(_ needle: StaticString) -> Bool { firstASCII(needle) != nil }
}
