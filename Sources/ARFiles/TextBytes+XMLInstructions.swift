extension TextBytes {
  /// `bytes` (UTF-8 XML) with every processing instruction that has no data (`<?name?>`)
  /// turned into as many spaces.
  ///
  /// swift-corelibs-foundation's `XMLParser` reads such an instruction's data with `strlen` on
  /// the null pointer libxml2 hands it, and crashes. Instructions mean nothing to the formats
  /// arscene reads, and spaces of the same length keep every line and column where it was (a
  /// processing instruction stands only where white space may too). Comments and CDATA sections
  /// are left as they are.
  package static func blankingEmptyProcessingInstructions(_ bytes: [UInt8]) -> [UInt8] {
    var out = bytes
    var i = 0
    func starts(_ text: String, at index: Int) -> Bool {
      let pattern = Array(text.utf8)
      return index + pattern.count <= bytes.count
        && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    }
    func skip(to end: String, from index: Int) -> Int {
      var k = index
      while k < bytes.count, !starts(end, at: k) { k += 1 }
      return k + end.utf8.count
    }
    while i < bytes.count {
      guard bytes[i] == UInt8(ascii: "<") else {
        i += 1
        continue
      }
      if starts("<!--", at: i) {
        i = skip(to: "-->", from: i + 4)
      } else if starts("<![CDATA[", at: i) {
        i = skip(to: "]]>", from: i + 9)
      } else if starts("<?", at: i) {
        // The target: up to white space or the closing `?>`.
        var k = i + 2
        while k < bytes.count, !starts("?>", at: k), ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[k]) { k += 1 }
        if k > i + 2, starts("?>", at: k) {
          for j in i...(k + 1) { out[j] = UInt8(ascii: " ") }
        }
        i = skip(to: "?>", from: k)
      } else {
        i += 1
      }
    }
    return out
  }
}
