extension StringProtocol {
  /// The first occurrence of `needle`, an ASCII text such as `"/{"` or `".primvars:"`, found by
  /// comparing UTF-8 bytes (an ASCII byte never lies inside another character's encoding, so
  /// the range is one of whole characters). Foundation's `range(of:)` and `contains(_:)` bridge
  /// every string to a CFString: over a stage's few thousand keys, a twentieth of a USDZ's
  /// reading on one core.
  func firstASCII(_ needle: String) -> Range<Index>? {
    let pattern = Array(needle.utf8)
    precondition(pattern.allSatisfy { $0 < 0x80 } && !pattern.isEmpty, "an ASCII needle")
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

  /// Whether `needle`, an ASCII text, occurs (``firstASCII(_:)``).
  func containsASCII(_ needle: String) -> Bool { firstASCII(needle) != nil }
}
