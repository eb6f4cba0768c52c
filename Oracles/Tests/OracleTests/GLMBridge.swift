import ARMath
import GLMOracle

// Calls into GLMOracle (GLM behind a C ABI) with ARMath types. Column-major on both sides.

func glmMatrix4<S: ARScalar>(_ body: (UnsafeMutablePointer<S>) -> Void) -> Matrix4<S> {
  var out = [S](repeating: .nan, count: 16)
  out.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  let c = { (i: Int) in SIMD4(out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]) }
  return Matrix4(c(0), c(1), c(2), c(3))
}

func glmMatrix3(_ body: (UnsafeMutablePointer<Double>) -> Void) -> Matrix3<Double> {
  var out = [Double](repeating: .nan, count: 9)
  out.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  return Matrix3(SIMD3(out[0], out[1], out[2]), SIMD3(out[3], out[4], out[5]), SIMD3(out[6], out[7], out[8]))
}

func glmQuaternion(_ body: (UnsafeMutablePointer<Double>) -> Void) -> Quaternion<Double> {
  var out = [Double](repeating: .nan, count: 4)
  out.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  return Quaternion(vector: SIMD4(out[0], out[1], out[2], out[3]))
}

func glmVector3(_ body: (UnsafeMutablePointer<Double>) -> Void) -> SIMD3<Double> {
  var out = [Double](repeating: .nan, count: 3)
  out.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
  return SIMD3(out[0], out[1], out[2])
}

/// Calls `body` with pointers to the column-major elements of the matrices.
func withElements<S: ARScalar, R>(_ m: Matrix4<S>, _ body: (UnsafePointer<S>) -> R) -> R {
  m.columnMajorElements.withUnsafeBufferPointer { body($0.baseAddress!) }
}

func withElements<R>(_ m: Matrix3<Double>, _ body: (UnsafePointer<Double>) -> R) -> R {
  m.columnMajorElements.withUnsafeBufferPointer { body($0.baseAddress!) }
}

func withElements<R>(_ v: SIMD3<Double>, _ body: (UnsafePointer<Double>) -> R) -> R {
  [v.x, v.y, v.z].withUnsafeBufferPointer { body($0.baseAddress!) }
}

func withElements<R>(_ q: Quaternion<Double>, _ body: (UnsafePointer<Double>) -> R) -> R {
  [q.vector.x, q.vector.y, q.vector.z, q.vector.w].withUnsafeBufferPointer { body($0.baseAddress!) }
}
