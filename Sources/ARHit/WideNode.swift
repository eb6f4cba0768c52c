/// A node of the 4-wide tree that ``BoundingVolumeHierarchy`` traverses: the boxes of up to four
/// children, one `SIMD4` lane a child, so one visit tests all four boxes at once.
///
/// Boxes are `Float`, rounded outwards from the build's `Double` boxes (so they still contain
/// their triangles). 128 bytes: two cache lines that incoherent rays fetch together, where the
/// binary tree made them wait for twice as many nodes one after another.
@usableFromInline
struct WideNode: Sendable {
  // Lower and upper bounds of the four children per axis. Unused lanes hold an empty box
  // (lower +∞, upper −∞), which no ray hits.
  @usableFromInline var lowerX = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperX = SIMD4<Float>(repeating: -.infinity)
  @usableFromInline var lowerY = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperY = SIMD4<Float>(repeating: -.infinity)
  @usableFromInline var lowerZ = SIMD4<Float>(repeating: .infinity)
  @usableFromInline var upperZ = SIMD4<Float>(repeating: -.infinity)
  /// Per lane: an inner node's index (≥ 0), or a leaf as `~packet` (< 0): its
  /// ``LeafTriangles`` packet, holding `count` triangles. (The builders first write `~first`,
  /// the leaf's triangles being `first ..< first + count` in their leaf order; packing the
  /// leaves replaces it.)
  @usableFromInline var child = SIMD4<Int32>(repeating: 0)
  @usableFromInline var count = SIMD4<Int32>(repeating: 0)

  // Byte offsets of the fields, as literals: read through `static let`s, each use in the
  // traversal paid a lazy-initialisation check (3% of a ray). `offsetsMatchLayout()` holds them to
  // the real layout.
  /// Byte offsets of the lower bound vectors (x, y, z), for the traversal's per-ray choice of
  /// the near and far planes (``WideBoxRay``).
  @usableFromInline static var lowerOffsets: SIMD3<Int> { SIMD3(0, 32, 64) }
  /// Byte offsets of the upper bound vectors (x, y, z).
  @usableFromInline static var upperOffsets: SIMD3<Int> { SIMD3(16, 48, 80) }
  @usableFromInline static var childOffset: Int { 96 }

  /// Whether the offset literals match the layout (asserted in debug builds, at each build).
  static func offsetsMatchLayout() -> Bool {
    let layout = MemoryLayout<WideNode>.self
    return lowerOffsets
      == SIMD3(layout.offset(of: \.lowerX)!, layout.offset(of: \.lowerY)!, layout.offset(of: \.lowerZ)!)
      && upperOffsets
        == SIMD3(layout.offset(of: \.upperX)!, layout.offset(of: \.upperY)!, layout.offset(of: \.upperZ)!)
      && childOffset == layout.offset(of: \.child)!
      && layout.stride == 128
  }
}

extension WideNode {
  /// Lane `lane`'s child reference in the node at `node`.
  @inlinable @inline(__always)
  static func child(_ node: UnsafeRawPointer, _ lane: Int) -> Int32 {
    node.load(fromByteOffset: childOffset + 4 * lane, as: Int32.self)
  }

  /// The lanes of the node at `node` that are leaves, a bit each (lane 0 the lowest): the sign
  /// bits of the child references.
  @inlinable @inline(__always)
  static func leafLanes(_ node: UnsafeRawPointer) -> Int {
    let signs = node.load(fromByteOffset: childOffset, as: SIMD4<UInt32>.self) &>> 31
    return Int(signs.x | signs.y &<< 1 | signs.z &<< 2 | signs.w &<< 3)
  }

  /// Lane `lane`'s box.
  mutating func setBox(_ lane: Int, lower: SIMD3<Float>, upper: SIMD3<Float>) {
    lowerX[lane] = lower.x
    lowerY[lane] = lower.y
    lowerZ[lane] = lower.z
    upperX[lane] = upper.x
    upperY[lane] = upper.y
    upperZ[lane] = upper.z
  }
}
