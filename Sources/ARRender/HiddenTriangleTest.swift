/// Which triangles are first tested for being hidden everywhere before they are marked (a
/// test that reads the depths in their box, a quarter of what marking costs): those of a facing
/// whose last triangle drawn marked nothing.
///
/// A mesh drawn without culling (as GL draws) has its back faces behind its front faces, which
/// ``MarkingOrder`` marks after the nearer facing; which faces are back faces depends on its
/// winding. So each facing is tested while its triangles turn out hidden, and when they do not,
/// only one in eight is, to notice a change. The test only skips triangles that would mark
/// nothing: the image is the same whichever are tested.
struct HiddenTriangleTest {
  /// Per facing: the triangles of that facing still to draw untested. (Two scalars, not a
  /// vector indexed by facing: writing one lane and then reading the whole vector stalled on
  /// every triangle, as the read waited for the write to reach the cache.)
  private var frontUntested: Int32 = 0, backUntested: Int32 = 0

  /// Whether to test the next triangle, back-facing or not.
  @inline(__always)
  mutating func shouldTest(backFacing: Bool) -> Bool {
    if backFacing {
      guard backUntested == 0 else {
        backUntested &-= 1
        return false
      }
    } else {
      guard frontUntested == 0 else {
        frontUntested &-= 1
        return false
      }
    }
    return true
  }

  /// Records whether a triangle of the facing marked any sample.
  @inline(__always)
  mutating func record(marked: Bool, backFacing: Bool) {
    let untested: Int32 = marked ? 7 : 0
    if backFacing { backUntested = untested } else { frontUntested = untested }
  }
}
