import ARMath
import CVectorKernels

/// The placement's hot loops in AVX2 (`CVectorKernels`), where the CPU has it: the Swift build
/// targets baseline x86-64, whose SIMD3<Double> is two SSE2 registers; a point is one AVX2
/// register. Each loop gives the bits of the portable one it stands for (same products and
/// sums in the same order, no fused multiply-adds), so a model loads to the same mesh on every
/// CPU; `ARSCENE_PORTABLE_KERNELS=1` runs the portable loops anywhere.
extension GLTFPlacementLayout {
  /// Whether this CPU runs the AVX2 loops, checked once.
  static let wideKernels = arscene_cpu_has_avx2() != 0

  /// Points `vertices` of `points` through `world`, less `origin`, written as floats to
  /// `positions` at their indices; their box in the asset's frame.
  static func placePointsWide(
    _ points: UnsafeBufferPointer<SIMD3<Double>>, _ vertices: Range<Int>, world: Matrix4<Double>,
    origin: SIMD3<Double>, into positions: UnsafeMutablePointer<SIMD3<Float>>
  ) -> Box {
    guard !vertices.isEmpty, let first = points.baseAddress else { return Box() }
    var box = arscene_box()
    withUnsafeBytes(of: world.columns) { matrix in
      withUnsafeBytes(of: origin) { origin in
        arscene_place_points_avx2(
          UnsafeRawPointer(first).assumingMemoryBound(to: Double.self), vertices.lowerBound,
          vertices.upperBound,
          matrix.baseAddress!.assumingMemoryBound(to: Double.self),
          origin.baseAddress!.assumingMemoryBound(to: Double.self),
          UnsafeMutableRawPointer(positions).assumingMemoryBound(to: Float.self), &box)
      }
    }
    return Box(
      low: SIMD3(box.low.0, box.low.1, box.low.2), high: SIMD3(box.high.0, box.high.1, box.high.2),
      unordered: box.unordered != 0)
  }

  /// `matrix` times `vectors[v]` made unit, written to `out[v]`, for each `v` of `range`: the
  /// AVX2 ``writeUnit(_:of:to:)``.
  static func writeUnitWide(
    _ range: Range<Int>, of vectors: UnsafePointer<SIMD3<Double>>, by matrix: Matrix3<Double>,
    to out: UnsafeMutablePointer<SIMD3<Float>>
  ) {
    guard !range.isEmpty else { return }
    withUnsafeBytes(of: matrix.columns) { matrix in
      arscene_write_unit_normals_avx2(
        UnsafeRawPointer(vectors).assumingMemoryBound(to: Double.self), range.lowerBound, range.upperBound,
        matrix.baseAddress!.assumingMemoryBound(to: Double.self),
        UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self))
    }
  }
}

extension GLTFPrimitiveAttributes {
  /// The AVX2 ``addSmoothNormals(_:_:into:wide:)``.
  static func addSmoothNormalsWide(
    _ points: UnsafeBufferPointer<SIMD3<Double>>, _ triangles: UnsafeBufferPointer<UInt32>,
    into sums: UnsafeMutableBufferPointer<SIMD3<Double>>
  ) {
    guard let points = points.baseAddress, let corners = triangles.baseAddress, let sums = sums.baseAddress
    else { return }
    arscene_add_smooth_normals_avx2(
      UnsafeRawPointer(points).assumingMemoryBound(to: Double.self), corners, triangles.count,
      UnsafeMutableRawPointer(sums).assumingMemoryBound(to: Double.self))
  }
}
