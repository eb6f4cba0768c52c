import ARImage

/// One tile's buffers as plain pointers, indexed by frame sample coordinates: colour at
/// `y · colorWidth + x`, depth at `y · depthWidth + x` (a tile buffer and the output image have
/// different row lengths). Passing them per triangle costs no reference counting.
struct TargetView<Store: SampleStore> {
  let store: Store
  let colorWidth: Int
  let depth: UnsafeMutablePointer<Float>
  let depthWidth: Int
}
