import ARMath

/// A plane-to-plane projective map: `x′ ~ H·[x, y, 1]`.
public struct Homography: Sendable, Equatable {
  /// The 3×3 matrix (defined up to scale; ``estimate(from:to:)`` returns it with `h₃₃ = 1`).
  public var matrix: Matrix3<Double>

  /// A homography with matrix `m`.
  public init(_ m: Matrix3<Double>) { matrix = m }

  /// Where `p` maps to; nil when it maps to infinity. (Inlinable: marker detection applies it
  /// to every sample of every candidate's cells.)
  @inlinable
  public func apply(_ p: SIMD2<Double>) -> SIMD2<Double>? {
    let q = matrix * SIMD3(p.x, p.y, 1)
    guard q.z != 0 else { return nil }
    return SIMD2(q.x / q.z, q.y / q.z)
  }

  /// The homography taking `source[i]` to `target[i]` (n ≥ 4 correspondences), by the
  /// normalised direct linear transform (Hartley 1997): both point sets are moved to their
  /// centroid and scaled to mean distance √2, the 8 unknowns (with `h₃₃ = 1` in normalised
  /// coordinates, where it cannot vanish for a non-degenerate configuration) are solved by
  /// Householder QR in the least-squares sense, and the result is denormalised. Exact for 4
  /// points.
  /// - Throws: ``PoseError/degenerate(_:)`` when three of the points are collinear (no unique
  ///   homography) or points repeat.
  public static func estimate(from source: [SIMD2<Double>], to target: [SIMD2<Double>]) throws(PoseError)
    -> Homography
  {
    guard source.count == target.count, source.count >= 4 else {
      throw .degenerate("a homography needs at least 4 point pairs, got \(min(source.count, target.count))")
    }
    for (i, p) in (source + target).enumerated() where !(p.x.isFinite && p.y.isFinite) {
      throw .invalidInput(field: "point \(i % source.count)", reason: "not finite")
    }
    let ns = try normalisation(source), nt = try normalisation(target)
    // The normal equations AᵀA·h = Aᵀb of the 2n×8 system (well conditioned after the
    // normalisation), accumulated row by row with scalar indices.
    var ata = DenseMatrix<Double>(rows: 8, columns: 8), atb = [Double](repeating: 0, count: 8)
    ata.elements.withUnsafeMutableBufferPointer { ata in
      atb.withUnsafeMutableBufferPointer { atb in
        for i in 0..<source.count {
          let s = ns * SIMD3(source[i].x, source[i].y, 1), t = nt * SIMD3(target[i].x, target[i].y, 1)
          let (x, y, u, v) = (s.x, s.y, t.x, t.y)
          let ru = (x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y), rv = (0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y)
          NormalEquations.addRows(ru, u, rv, v, n: 8, normal: ata.baseAddress!, rhs: atb.baseAddress!)
        }
      }
    }
    guard let h = ata.solve(atb) else {
      throw .degenerate("the points do not determine a homography (three collinear, or repeated)")
    }
    let normalised = Matrix3<Double>(
      rows: SIMD3(h[0], h[1], h[2]), SIMD3(h[3], h[4], h[5]), SIMD3(h[6], h[7], 1))
    guard let ntInverse = nt.inverse else { throw .degenerate("degenerate normalisation") }
    var m = ntInverse * normalised * ns
    m = m * (1 / m[2, 2])  // h₃₃ = 1 where the source centroid maps to a finite point
    return Homography(m)
  }

  /// The similarity moving points to their centroid and scaling their mean distance to √2.
  static func normalisation(_ points: [SIMD2<Double>]) throws(PoseError) -> Matrix3<Double> {
    let centroid = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
    let meanDistance = points.map { ($0 - centroid).length }.reduce(0, +) / Double(points.count)
    guard meanDistance > 0 else { throw .degenerate("all points coincide") }
    let s = 2.0.squareRoot() / meanDistance
    return Matrix3(rows: SIMD3(s, 0, -s * centroid.x), SIMD3(0, s, -s * centroid.y), SIMD3(0, 0, 1))
  }

  /// The pose of a plane seen through this homography, when it maps plane coordinates (metres,
  /// z = 0) to normalised image coordinates (`K⁻¹·pixel`, OpenCV camera convention): the
  /// decomposition `H ∝ [r₁ r₂ t]` (Zhang 2000), with the rotation made orthonormal by SVD and
  /// the sign chosen so the plane is in front of the camera. `camera_from_plane`.
  public func planePose() throws(PoseError) -> RigidTransform<Double> {
    let h1 = matrix.columns.0, h2 = matrix.columns.1, h3 = matrix.columns.2
    let scale = 2 / (h1.length + h2.length)
    guard scale.isFinite, scale > 0 else { throw .degenerate("the homography is singular") }
    let sign: Double = h3.z >= 0 ? 1 : -1  // the plane's origin must have positive depth
    let r1 = h1 * (scale * sign), r2 = h2 * (scale * sign)
    let rotation = Matrix3(r1, r2, r1.cross(r2)).nearestRotation
    return RigidTransform(rotationMatrix: rotation, translation: h3 * (scale * sign))
  }
}
