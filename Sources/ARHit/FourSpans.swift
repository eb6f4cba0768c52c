/// The up to four children of a wide node while it is being split, held inline.
///
/// A fixed-size tuple rather than the standard library's `InlineArray`, whose runtime needs
/// macOS 26 / iOS 26: ARHit is part of the core that app teams' tests run on older systems.
struct FourSpans {
  private var spans: (BuildSpan, BuildSpan, BuildSpan, BuildSpan)

  /// Four copies of `span`.
  init(repeating span: BuildSpan) { spans = (span, span, span, span) }

  subscript(lane: Int) -> BuildSpan {
    get {
      precondition((0..<4).contains(lane), "a wide node has four lanes")
      return switch lane {
      case 0: spans.0
      case 1: spans.1
      case 2: spans.2
      default: spans.3
      }
    }
    set {
      precondition((0..<4).contains(lane), "a wide node has four lanes")
      switch lane {
      case 0: spans.0 = newValue
      case 1: spans.1 = newValue
      case 2: spans.2 = newValue
      default: spans.3 = newValue
      }
    }
  }
}
