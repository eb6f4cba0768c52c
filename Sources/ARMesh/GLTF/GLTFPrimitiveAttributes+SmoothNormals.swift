import ARMath

extension GLTFPrimitiveAttributes {
  /// Whether its vertices have normals, given or pending; without, it is drawn flat, a vertex
  /// a triangle corner.
  var hasNormals: Bool { normals != nil || smoothNormalsPending }

  /// The same primitive with pending smooth normals made and stored in ``normals``: for a
  /// primitive drawn in parts (a mesh's GeomSubsets, whose normals are the whole mesh's) or
  /// many times (a point instancer's prototype, made once).
  func withNormalsMade() -> GLTFPrimitiveAttributes {
    guard smoothNormalsPending else { return self }
    var made = self
    made.normals = Self.smoothNormals(positions, triangles)
    made.smoothNormalsPending = false
    return made
  }

  /// Each point's normal, unnormalised: the sum of its triangles' cross products (so weighted
  /// by area); zero for a point no triangle with an area touches. The mesh's assembly makes
  /// every normal unit after its transform, so it is not made unit twice.
  static func smoothNormals(
    _ points: Vector3Array, _ triangles: [UInt32], wide: Bool = GLTFPlacementLayout.wideKernels
  ) -> [SIMD3<Double>] {
    var sums = [SIMD3<Double>](repeating: .zero, count: points.count)
    sums.withUnsafeMutableBufferPointer { sums in
      triangles.withUnsafeBufferPointer { addSmoothNormals(points, $0, into: sums, wide: wide) }
    }
    return sums
  }

  /// Adds each triangle's cross product to its three corners' sums in `sums` (a point each;
  /// the triangles' corners are points' indices below its count). `wide`: with the AVX2 loop
  /// (``addSmoothNormalsWide(_:_:into:)``, the same bits), over the points as they are held.
  @inline(__always)
  static func addSmoothNormals(
    _ points: Vector3Array, _ triangles: UnsafeBufferPointer<UInt32>,
    into sums: UnsafeMutableBufferPointer<SIMD3<Double>>, wide: Bool
  ) {
    if wide { return addSmoothNormalsWide(points, triangles, into: sums) }
    points.withUnsafeDoubles { addSmoothNormals($0, triangles, into: sums) }
  }

  /// The portable loop of ``addSmoothNormals(_:_:into:wide:)``.
  @inline(__always)
  private static func addSmoothNormals(
    _ points: UnsafeBufferPointer<SIMD3<Double>>, _ triangles: UnsafeBufferPointer<UInt32>,
    into sums: UnsafeMutableBufferPointer<SIMD3<Double>>
  ) {
    @inline(__always) func corner(_ k: Int) -> Int { Int(triangles[k]) }
    let end = triangles.count - triangles.count % 3
    var t = 0
    while t < end {
      let (a, b, c) = (corner(t), corner(t + 1), corner(t + 2))
      let n = (points[b] - points[a]).cross(points[c] - points[a])
      // A fan's next triangle shares two corners: (a, b, c) then (a, c, d), or turned
      // left-handed, (a, b, c) then (a, d, b). The shared corners' sums take both triangles'
      // products at once (each sum otherwise waits on the store before it: 1.6 ms of a
      // 980k-triangle USDZ's 13.9).
      if t + 5 < end, corner(t + 3) == a, corner(t + 4) == c || corner(t + 5) == b {
        let (e, f) = (corner(t + 4), corner(t + 5))
        let m = (points[e] - points[a]).cross(points[f] - points[a])
        let (shared, own, other) = e == c ? (c, b, f) : (b, c, e)
        let both = n + m
        sums[a] += both
        sums[shared] += both
        sums[own] += n
        sums[other] += m
        t += 6
        continue
      }
      sums[a] += n
      sums[b] += n
      sums[c] += n
      t += 3
    }
  }
}
