import ARMath
import ARTestSupport
import Testing

@Suite("ARMath small numerics")
struct NumericsTests {
  @Test("symmetric eigen-decomposition reconstructs A, with ordered values and a rotation")
  func symmetricEigen() {
    var rng = SplitMix64(seed: 201)
    for i in 0..<2_000 {
      // A = R·diag(λ)·Rᵀ with some eigenvalues clustered or repeated.
      let r: Quaternion<Double> = rng.rotation()
      var lambda = SIMD3<Double>(rng.scalar(-10...10), rng.scalar(-10...10), rng.scalar(-10...10))
      if i % 3 == 0 { lambda.y = lambda.x + 1e-9 }
      if i % 7 == 0 { lambda.z = lambda.x }
      let a = r.matrix * Matrix3(diagonal: lambda) * r.matrix.transposed
      let e = SymmetricEigen3(a)
      let sorted = [lambda.x, lambda.y, lambda.z].sorted()
      #expect(
        e.values.isApproximatelyEqual(to: SIMD3(sorted[0], sorted[1], sorted[2]), absoluteTolerance: 1e-13),
        "case \(i)")
      let back = e.vectors * Matrix3(diagonal: e.values) * e.vectors.transposed
      #expect(back.isApproximatelyEqual(to: a, absoluteTolerance: 1e-13), "case \(i)")
      #expect(
        (e.vectors.transposed * e.vectors).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-14),
        "case \(i)")
      #expect(abs(e.vectors.determinant - 1) < 1e-14, "case \(i)")
    }
    // The normal of a flat point covariance is the eigenvector of the smallest value.
    let flat = Matrix3<Double>(diagonal: [4, 1e-12, 9])
    #expect(abs(abs(SymmetricEigen3(flat).vectors[column: 0].y) - 1) < 1e-15)
  }

  @Test("SVD reconstructs A with orthonormal factors, also rank-deficient")
  func svd() {
    var rng = SplitMix64(seed: 202)
    for i in 0..<2_000 {
      var a = Matrix3<Double>(rng.vector3(-5...5), rng.vector3(-5...5), rng.vector3(-5...5))
      if i % 5 == 0 { a[column: 2] = a[column: 0] * 2 - a[column: 1] }  // rank 2
      if i % 11 == 0 { a = Matrix3.outer(rng.vector3(), rng.vector3()) }  // rank 1
      let s = SVD3(a)
      let back = s.u * Matrix3(diagonal: s.singularValues) * s.v.transposed
      #expect(
        back.isApproximatelyEqual(to: a, absoluteTolerance: 1e-13 * Swift.max(1, a.maxMagnitude)), "case \(i)"
      )
      #expect(
        (s.u.transposed * s.u).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-13), "case \(i)")
      #expect(
        (s.v.transposed * s.v).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-13), "case \(i)")
      let sv = s.singularValues
      #expect(sv.x >= sv.y && sv.y >= sv.z && sv.z >= 0, "case \(i)")
      if i % 5 == 0 { #expect(sv.z < 1e-13 * sv.x, "case \(i)") }
    }
    #expect(SVD3(Matrix3<Double>.zero).singularValues == .zero)
  }

  @Test("nearest rotation recovers a rotation from a noisy or reflected matrix")
  func nearestRotation() {
    var rng = SplitMix64(seed: 203)
    for i in 0..<500 {
      let q: Quaternion<Double> = rng.rotation()
      let noisy =
        q.matrix + Matrix3(rng.vector3(-1e-3...1e-3), rng.vector3(-1e-3...1e-3), rng.vector3(-1e-3...1e-3))
      let r = noisy.nearestRotation
      #expect(abs(r.determinant - 1) < 1e-13, "case \(i)")
      #expect(Quaternion(rotationMatrix: r).angle(to: q).degrees < 0.2, "case \(i)")
    }
    #expect(Matrix3<Double>(diagonal: [1, 1, -1]).nearestRotation.determinant > 0)
  }

  @Test("Cholesky solves SPD systems and refuses indefinite ones")
  func cholesky() throws {
    var rng = SplitMix64(seed: 204)
    for n in [1, 2, 3, 6, 12] {
      let b = DenseMatrix<Double>((0..<(n + 3)).map { _ in (0..<n).map { _ in rng.scalar() } })
      let a = b.gram  // SPD with probability 1
      let x: [Double] = (0..<n).map { _ in rng.scalar(-10...10) }
      let chol = try #require(Cholesky(a))
      let solved = chol.solve(a * x)
      for k in 0..<n { #expect(abs(solved[k] - x[k]) < 1e-9, "n = \(n)") }
      let identity = a * chol.inverse
      for r in 0..<n { for c in 0..<n { #expect(abs(identity[r, c] - (r == c ? 1 : 0)) < 1e-9) } }
    }
    #expect(Cholesky(DenseMatrix<Double>([[1, 2], [2, 1]])) == nil)
    #expect(Cholesky(DenseMatrix<Double>([[1, 1], [1, 1]])) == nil)
    #expect(Cholesky(DenseMatrix<Double>([[1, 0, 0], [0, 1, 0]])) == nil)
  }

  @Test("QR least squares fits an overdetermined line and detects rank deficiency")
  func qr() throws {
    // y = 2 + 3x exactly, and with symmetric residuals that cancel.
    let xs: [Double] = [0, 1, 2, 3, 4]
    let a = DenseMatrix(xs.map { [1, $0] })
    let exact = try #require(HouseholderQR(a)?.solve(xs.map { 2 + 3 * $0 }))
    #expect(abs(exact[0] - 2) < 1e-14 && abs(exact[1] - 3) < 1e-14)
    var rng = SplitMix64(seed: 205)
    let m = DenseMatrix<Double>((0..<40).map { _ in (0..<6).map { _ in rng.scalar() } })
    let truth: [Double] = (0..<6).map { _ in rng.scalar(-5...5) }
    let fit = try #require(HouseholderQR(m)?.solve(m * truth))
    for k in 0..<6 { #expect(abs(fit[k] - truth[k]) < 1e-12) }
    #expect(HouseholderQR(DenseMatrix<Double>([[1, 2], [2, 4], [3, 6]]))?.solve([1, 2, 3]) == nil)
    #expect(HouseholderQR(DenseMatrix<Double>([[1, 2, 3]])) == nil)
  }

  @Test("Levenberg–Marquardt minimises Rosenbrock and fits an exponential with and without a Jacobian")
  func levenbergMarquardt() {
    let solver = LevenbergMarquardt<Double>()
    let rosenbrock = solver.minimize(from: [-1.2, 1]) { x in [10 * (x[1] - x[0] * x[0]), 1 - x[0]] }
    #expect(abs(rosenbrock.parameters[0] - 1) < 1e-10 && abs(rosenbrock.parameters[1] - 1) < 1e-10)
    #expect(rosenbrock.termination != .maxIterations && rosenbrock.termination != .numericalFailure)

    // y = a·exp(b·t) + noise-free data; start far off.
    let ts = (0..<30).map { Double($0) / 10 }
    let ys = ts.map { 2.5 * Double.exp(-1.3 * $0) }
    let residuals = { (p: [Double]) in zip(ts, ys).map { p[0] * Double.exp(p[1] * $0) - $1 } }
    let jacobian = { (p: [Double]) in
      DenseMatrix(ts.map { [Double.exp(p[1] * $0), p[0] * $0 * Double.exp(p[1] * $0)] })
    }
    for fit in [
      solver.minimize(from: [1, 0], residuals: residuals, jacobian: jacobian),
      solver.minimize(from: [1, 0], residuals: residuals),
    ] {
      #expect(abs(fit.parameters[0] - 2.5) < 1e-9 && abs(fit.parameters[1] + 1.3) < 1e-9)
      #expect(fit.cost < 1e-20)
      #expect(fit.normalMatrix.rows == 2)
    }
  }

  @Test("Levenberg–Marquardt reports non-finite residuals instead of looping")
  func levenbergMarquardtFailure() {
    let fit = LevenbergMarquardt<Double>().minimize(from: [1]) { _ in [.nan] }
    #expect(fit.termination == .numericalFailure)
  }
}
