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
    _ points: Vector3Array, _ vertices: Range<Int>, world: Matrix4<Double>,
    origin: SIMD3<Double>, into positions: UnsafeMutablePointer<SIMD3<Float>>
  ) -> Box {
    guard !vertices.isEmpty else { return Box() }
    var box = arscene_box()
    withUnsafeBytes(of: world.columns) { matrix in
      withUnsafeBytes(of: origin) { origin in
        let (matrix, origin) = (
          matrix.baseAddress!.assumingMemoryBound(to: Double.self),
          origin.baseAddress!.assumingMemoryBound(to: Double.self)
        )
        let out = UnsafeMutableRawPointer(positions).assumingMemoryBound(to: Float.self)
        let (from, to) = (vertices.lowerBound, vertices.upperBound)
        switch points.storage {
        case .doubles(let d):
          d.withUnsafeBytes { d in
            arscene_place_points_avx2(
              d.baseAddress!.assumingMemoryBound(to: Double.self), from, to, matrix, origin, out, &box)
          }
        case .floats(let f, _):
          f.withUnsafeBufferPointer { f in
            arscene_place_float_points_avx2(f.baseAddress!, from, to, matrix, origin, out, &box)
          }
        }
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
    _ points: Vector3Array, _ triangles: UnsafeBufferPointer<UInt32>,
    into sums: UnsafeMutableBufferPointer<SIMD3<Double>>
  ) {
    guard !points.isEmpty, let corners = triangles.baseAddress, let sums = sums.baseAddress else { return }
    let out = UnsafeMutableRawPointer(sums).assumingMemoryBound(to: Double.self)
    switch points.storage {
    case .doubles(let d):
      d.withUnsafeBytes { d in
        arscene_add_smooth_normals_avx2(
          d.baseAddress!.assumingMemoryBound(to: Double.self), corners, triangles.count, out)
      }
    case .floats(let f, _):
      f.withUnsafeBufferPointer {
        arscene_add_float_smooth_normals_avx2($0.baseAddress!, corners, triangles.count, out)
      }
    }
  }
}
