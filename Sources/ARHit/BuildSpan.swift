import ARMath

/// A run of ``BuildTriangle``s that becomes one subtree (or leaf), its bounds, and how many
/// binary splits lie above it.
struct BuildSpan {
  var start: Int
  var end: Int
  var bounds: BuildBounds
  var depth: Int
  var count: Int { end - start }
}
