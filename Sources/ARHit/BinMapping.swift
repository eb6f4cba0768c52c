import ARMath

/// Where a triangle's doubled centre falls among equal slabs (bins) of a span's centre bounds,
/// on each axis. The partition that follows a binning asks the same arithmetic, so every
/// triangle lands on the side its bin promised.
struct BinMapping {
  /// Bins per axis: from 4 for a few triangles up to ``SAHBins/count`` from 240 on, as Embree
  /// bins (more candidate planes than triangles only cost sweep time).
  let count: Int
  let origin: SIMD4<Float>
  /// Bins per unit of doubled centre on each axis; 0 on an axis the span cannot be split along
  /// (every centre the same there, or bounds too large for `Float`).
  let scale: SIMD4<Float>

  init(_ bounds: BuildBounds, triangles: Int) {
    count = min(SAHBins.count, 4 + triangles / 20)
    let extent = bounds.centreUpper - bounds.centreLower
    var scale = SIMD4<Float>.zero
    for axis in 0..<3 where extent[axis] > 0 && extent[axis].isFinite {
      scale[axis] = Float(count) / extent[axis]
    }
    (origin, self.scale) = (bounds.centreLower, scale)
    last = SIMD4(repeating: Float(count - 1))
  }

  private let last: SIMD4<Float>

  func canSplit(along axis: Int) -> Bool { scale[axis] > 0 }

  /// A centre's position in bins on each axis, before truncation: in [0, count − 1] (`min`
  /// turns a NaN from an axis that cannot be split into the last bin).
  @inline(__always)
  func position(_ centre: SIMD4<Float>) -> SIMD4<Float> {
    LaneMath.min((centre - origin) * scale, last)
  }

  /// A centre's bin on each axis.
  @inline(__always)
  func bins(_ centre: SIMD4<Float>) -> SIMD4<Int32> { LaneMath.truncated(position(centre)) }
}
