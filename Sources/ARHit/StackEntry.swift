import CMathShims

/// A node waiting on the traversal stack, with the scaled distance at which the ray enters it.
struct StackEntry {
  var node: Int32
  var entry: Float
}
