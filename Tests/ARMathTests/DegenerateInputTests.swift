import ARMath
import ARTestSupport
import Testing

/// What the math core does with input that has no good answer: it says so (nil or a typed
/// error) instead of returning NaNs.
@Suite("ARMath degenerate input")
struct DegenerateInputTests {
  @Test(
    "singular and nearly singular matrices have no inverse",
    arguments: [
      Matrix4<Double>(diagonal: [1, 1, 1, 0]),
      Matrix4<Double>(rows: [1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 0], [0, 0, 1, 0]),
      // Two columns parallel to within round-off: the inverse would be all noise.
      Matrix4<Double>(rows: [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1 + 1e-15]),
      Matrix4<Double>(diagonal: .zero),
      Matrix4<Double>(diagonal: [1, .nan, 1, 1]),
      Matrix4<Double>(diagonal: [1, .infinity, 1, 1]),
    ])
  func singularMatrix4(_ m: Matrix4<Double>) {
    #expect(m.inverse == nil)
  }

  @Test("tiny or badly scaled but regular matrices still invert: the test is relative")
  func tinyRegular() throws {
    let m = Matrix4<Double>(diagonal: [1e-10, 2e-10, 3e-10, 4e-17])
    let inverse = try #require(m.inverse)
    #expect((m * inverse).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-15))
  }

  @Test("singular 3×3 matrices and non-affine matrices have no inverse")
  func singularMatrix3() {
    #expect(Matrix3<Double>(rows: [1, 2, 3], [2, 4, 6], [0, 0, 1]).inverse == nil)
    #expect(Matrix3<Float>.zero.inverse == nil)
    #expect(
      Matrix4<Double>(rows: [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 1, 1]).affineInverse == nil)
    #expect(
      Matrix4<Double>(linear: Matrix3(diagonal: [1, 0, 1]), translation: [1, 2, 3]).affineInverse == nil)
  }

  @Test("zero, tiny and non-finite vectors do not normalise")
  func zeroVectors() {
    #expect(SIMD3<Double>.zero.normalizedOrNil() == nil)
    #expect(SIMD3<Double>(1e-20, 0, 0).normalizedOrNil() == nil)
    #expect(SIMD3<Double>(.nan, 0, 0).normalizedOrNil() == nil)
    #expect(SIMD3<Float>(.infinity, 0, 0).normalizedOrNil() == nil)
    #expect(SIMD3<Double>(0, 3, 4).normalizedOrNil() == [0, 0.6, 0.8])
    #expect(Ray<Double>(origin: .zero, direction: .zero) == nil)
    #expect(Ray<Double>(origin: [.nan, 0, 0], direction: [0, 0, 1]) == nil)
    #expect(Ray<Double>(origin: .zero, direction: [0, 0, 2])?.direction == [0, 0, 1])
  }

  @Test("non-unit and zero quaternions")
  func quaternions() {
    #expect(Quaternion<Double>(vector: .zero).normalizedOrNil() == nil)
    #expect(Quaternion<Double>(vector: [0, 0, .nan, 1]).normalizedOrNil() == nil)
    #expect(Quaternion<Double>(angle: .degrees(90), validatingAxis: .zero) == nil)
    #expect(Quaternion<Double>(angle: .radians(.nan), validatingAxis: [0, 1, 0]) == nil)
    // A non-unit quaternion normalises to the rotation it represents.
    let q = Quaternion<Double>(vector: [0, 0, 2, 2]).normalized()
    #expect(q.isSameRotation(as: Quaternion(angle: .degrees(90), axis: [0, 0, 1]), tolerance: 1e-15))
    // A matrix that is a slightly scaled rotation still gives a unit quaternion.
    let r = Quaternion<Double>(angle: .degrees(30), axis: [1, 2, 3]).matrix * 1.001
    #expect(abs(Quaternion(rotationMatrix: r).norm - 1) < 1e-15)
    #expect(Quaternion<Double>.lookRotation(forward: [0, 1, 0], up: [0, 2, 0]) == nil)
    #expect(Quaternion<Double>.lookRotation(forward: .zero, up: [0, 1, 0]) == nil)
    #expect(RigidTransform<Double>.lookAt(eye: [1, 1, 1], target: [1, 1, 1], up: [0, 1, 0]) == nil)
  }

  @Test("matrices from outside are checked for count and finiteness")
  func validatedInput() throws {
    #expect(throws: MatrixInputError.wrongCount(expected: 16, got: 15)) {
      try Matrix4<Double>(validatingColumnMajor: [Double](repeating: 0, count: 15))
    }
    var e = Matrix4<Double>.identity.columnMajorElements
    e[7] = .nan
    #expect(throws: MatrixInputError.notFinite(index: 7)) { try Matrix4<Double>(validatingColumnMajor: e) }
    #expect(throws: MatrixInputError.wrongCount(expected: 9, got: 10)) {
      try Matrix3<Double>(validatingColumnMajor: [Double](repeating: 1, count: 10))
    }
    let m = try Matrix4<Double>(validatingColumnMajor: Array(0..<16).map(Double.init))
    #expect(m[3, 2] == 14 && m.columnMajorElements == Array(0..<16).map(Double.init))
  }

  @Test("rigid transforms from matrices refuse scale, shear, reflection and NaN")
  func rigidValidation() throws {
    let rotation = Quaternion<Double>(angle: .degrees(40), axis: [0, 1, 1])
    let good = RigidTransform(rotation: rotation, translation: [1, 2, 3])
    let parsed = try RigidTransform(validatingMatrix: good.matrix)
    #expect(parsed.matrix.isApproximatelyEqual(to: good.matrix, absoluteTolerance: 1e-15))
    #expect(throws: RigidTransformError.reflection) {
      try RigidTransform(validatingMatrix: Matrix4<Double>.scale([1, 1, -1]))
    }
    #expect(throws: RigidTransformError.notAffine) {
      try RigidTransform(
        validatingMatrix: Matrix4<Double>.perspective(
          verticalFieldOfView: .degrees(60), aspect: 1, near: 1, far: 2))
    }
    #expect(throws: RigidTransformError.notFinite) {
      try RigidTransform(validatingMatrix: Matrix4<Double>.translation([.nan, 0, 0]))
    }
    expectError(RigidTransformError.self, "notOrthonormal") {
      try RigidTransform(validatingMatrix: Matrix4<Double>.scale([2, 2, 2]))
    }
  }

  @Test("camera intrinsics from outside are checked field by field")
  func intrinsicsValidation() {
    #expect(
      throws: CameraIntrinsicsError.invalid(field: "fx", reason: "must be a positive finite number of pixels")
    ) {
      try CameraIntrinsics<Double>(validatingFx: 0, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
    }
    expectError(CameraIntrinsicsError.self, "invalid") {
      try CameraIntrinsics<Double>(validatingFx: 500, fy: .nan, cx: 320, cy: 240, width: 640, height: 480)
    }
    expectError(CameraIntrinsicsError.self, "invalid") {
      try CameraIntrinsics<Double>(validatingFx: 500, fy: 500, cx: 320, cy: 240, width: 0, height: 480)
    }
    let camera = CameraIntrinsics<Double>(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
    #expect(camera.project([0, 0, 0]) == nil)
    #expect(camera.project([0, 0, -1]) == nil)
    #expect(camera.projectARKit([0, 0, 1]) == nil)
    #expect(!camera.contains([640, 10]) && camera.contains([0, 0]) && !camera.contains([-0.001, 3]))
  }
}

@Suite("ARMath range")
struct RangeTests {
  @Test("large but regular Float matrices still invert (no overflow in the singularity test)")
  func largeFloatMatrices() throws {
    let m = Matrix4<Float>(linear: Matrix3(diagonal: [2e4, 3e4, 1e4]), translation: [1e6, -2e6, 5e5])
    let inverse = try #require(m.inverse)
    // The translation is 2e6, where one Float ulp is 0.125: the product is I to that.
    #expect((m * inverse).isApproximatelyEqual(to: .identity, absoluteTolerance: 2 * Float(2e6).ulp))
    #expect(try #require(m.affineInverse).isApproximatelyEqual(to: inverse, relativeTolerance: 1e-5))
  }

  @Test(
    "projective Float matrices at any scale: regular ones invert, singular ones do not, where the singularity test's squares underflow or overflow",
    arguments: [Float(1e-9), 1e-3, 1, 1e3, 1e9])
  func projectiveFloatScales(scale: Float) throws {
    // A perspective-like matrix (last row not 0 0 0 1), and the same with two columns parallel.
    let regular =
      Matrix4<Float>(rows: [2, 0, 1, 0], [0, 3, 1, 0], [0, 0, -1, -0.2], [0, 0, -1, 0]) * scale
    let inverse = try #require(regular.inverse, "scale \(scale)")
    #expect((regular * inverse).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-5))
    let singular =
      Matrix4<Float>(rows: [2, 4, 1, 0], [1, 2, 1, 0], [3, 6, -1, -0.2], [1, 2, -1, 0]) * scale
    #expect(singular.inverse == nil, "scale \(scale)")
  }

  @Test(
    "allFinite: false for a NaN or an infinity at any coordinate of any vector, true for huge, tiny and signed zeros"
  )
  func allFinite() {
    let finite: [Double] = [0, -0.0, 1, -1e308, 1e308, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
    for count in 0..<10 {
      let vectors = (0..<count).map { k in
        SIMD3(finite[k % finite.count], finite[(k + 1) % finite.count], finite[(k + 3) % finite.count])
      }
      #expect(vectors.allFinite, "\(vectors)")
      for bad in [Double.nan, .infinity, -.infinity, .signalingNaN] {
        for k in 0..<count {
          for axis in 0..<3 {
            var spoiled = vectors
            spoiled[k][axis] = bad
            #expect(!spoiled.allFinite, "\(bad) at vector \(k) of \(count), axis \(axis)")
          }
        }
      }
    }
  }
}
