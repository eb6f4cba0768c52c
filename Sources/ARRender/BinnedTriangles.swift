import CMathShims

/// One batch's triangles and tile bins as plain pointers (valid while the batch is unchanged).
struct BinnedTriangles {
  let triangles: UnsafePointer<SetupTriangle>
  let binStart: UnsafePointer<Int32>
  let binned: UnsafePointer<Int32>

  init(triangles: UnsafePointer<SetupTriangle>, binStart: UnsafePointer<Int32>, binned: UnsafePointer<Int32>)
  {
    (self.triangles, self.binStart, self.binned) = (triangles, binStart, binned)
  }

  /// Asks for the triangle binned eight after position `k` (before `end`, its bin's end):
  /// bins hold triangles from anywhere in memory.
  @inline(__always)
  func prefetch(after k: Int, end: Int) {
    guard k &+ 8 < end else { return }
    // A 112-byte record spans two or three cache lines: its first and last.
    let ahead = UnsafeRawPointer(triangles + Int(binned[k &+ 8]))
    arscene_prefetch(ahead)
    arscene_prefetch(ahead + MemoryLayout<SetupTriangle>.size - 1)
  }

  /// `batch`'s buffers, which it owns and does not grow while the frame is rasterized.
  init(_ batch: SetupBatch) {
    triangles = UnsafePointer(batch.triangles.base)
    binStart = UnsafePointer(batch.binStart.base)
    binned = UnsafePointer(batch.binnedTriangles.base)
  }
}
