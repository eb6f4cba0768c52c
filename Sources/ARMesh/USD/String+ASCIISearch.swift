extension StringProtocol {
  /// The first occurrence of `needle`, an ASCII text such as `"/{"` or `".primvars:"`, found by
  /// comparing UTF-8 bytes (an ASCII byte never lies inside another character's encoding, so
  /// the range is one of whole characters). Foundation's `range(of:)` and `contains(_:)` bridge
  /// every string to a CFString: over a stage's few thousand keys, a twentieth of a USDZ's
  /// reading on one core. The needle is a literal, read in place.
  func firstASCII(_ needle: StaticString) -> Range<Index>? {
    precondition(needle.isASCII && needle.utf8CodeUnitCount > 0, "an ASCII needle")
    let bytes = utf8
    // A native string's bytes are searched in place; walking the view's indices one by one
    // (for a bridged string, the only way) took a tenth of a USDZ's reading.
    if let found = bytes.withContiguousStorageIfAvailable({ Self.offset(of: needle, in: $0) }) {
      guard let offset = found else { return nil }
      let start = bytes.index(bytes.startIndex, offsetBy: offset)
      return start..<bytes.index(start, offsetBy: needle.utf8CodeUnitCount)
    }
    return needle.withUTF8Buffer { pattern in
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
  func containsASCII(_ needle: StaticString) -> Bool {
    if let found = utf8.withContiguousStorageIfAvailable({ Self.offset(of: needle, in: $0) }) {
      return found != nil
    }
    return firstASCII(needle) != nil
  }

  /// Where `needle` first starts in `bytes`, in bytes.
  private static func offset(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    needle.withUTF8Buffer { pattern in
      let (n, m) = (bytes.count, pattern.count)
      guard m <= n else { return nil }
      let first = pattern[0]
      var i = 0
      while i <= n &- m {
        if bytes[i] == first {
          var k = 1
          while k < m && bytes[i &+ k] == pattern[k] { k &+= 1 }
          if k == m { return i }
        }
        i &+= 1
      }
      return nil
    }
  }
}

extension StringProtocol where UTF8View: BidirectionalCollection {
  /// The last occurrence of the ASCII character `character` (a path's `/`, an attribute's `.`),
  /// found by its byte: walking characters backwards, as `lastIndex(of:)` does, tests every
  /// pair of scalars for a grapheme break, and prims' paths are split several times a prim.
  func lastASCII(_ character: Unicode.Scalar) -> Index? {
    precondition(character.isASCII, "an ASCII character")
    return utf8.lastIndex(of: UInt8(character.value))
  }
}
