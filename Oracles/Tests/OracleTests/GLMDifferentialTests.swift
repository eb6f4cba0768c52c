import ARMath
import ARTestSupport
import GLMOracle
import Testing

/// ARMath against GLM on seeded random inputs, thousands of cases per operation.
///
/// Tolerances are stated per test in units of the type's epsilon (`ε`: 2.2e-16 for Double,
/// 1.2e-7 for Float), relative to the magnitude of the result (max-norm), because the two
/// libraries sum the same products in different orders.
@Suite("ARMath against GLM")
struct GLMDifferentialTests {
  static let cases = 4_000
  let eps = Double.ulpOfOne

  @Test("4×4 product, Double: within 4ε of the operands' scale")
  func matrixProductDouble() {
    var rng = SplitMix64(seed: 1)
    for i in 0..<Self.cases {
      let a: Matrix4<Double> = rng.matrix4(-100...100), b: Matrix4<Double> = rng.matrix4(-100...100)
      let ours = a * b
      let glm: Matrix4<Double> = glmMatrix4 { out in
        withElements(a) { pa in withElements(b) { pb in glm_oracle_mat4_mul_d(pa, pb, out) } }
      }
      // Each entry is a sum of 4 products bounded by ‖a‖∞‖b‖∞.
      let bound = 4 * eps * 4 * a.maxMagnitude * b.maxMagnitude
      #expect(ours.isApproximatelyEqual(to: glm, absoluteTolerance: bound), "case \(i)")
    }
  }

  @Test("4×4 product, Float: within 4ε of the operands' scale")
  func matrixProductFloat() {
    var rng = SplitMix64(seed: 2)
    for i in 0..<Self.cases {
      let a: Matrix4<Float> = rng.matrix4(-10...10), b: Matrix4<Float> = rng.matrix4(-10...10)
      let ours = a * b
      let glm: Matrix4<Float> = glmMatrix4 { out in
        withElements(a) { pa in withElements(b) { pb in glm_oracle_mat4_mul_f(pa, pb, out) } }
      }
      let bound = 4 * Float.ulpOfOne * 4 * a.maxMagnitude * b.maxMagnitude
      #expect(ours.isApproximatelyEqual(to: glm, absoluteTolerance: bound), "case \(i)")
    }
  }

  @Test("4×4 inverse and determinant, Double: within 64ε on well-conditioned matrices")
  func inverseDouble() throws {
    var rng = SplitMix64(seed: 3)
    for i in 0..<Self.cases {
      let m: Matrix4<Double> = rng.wellConditionedMatrix4()
      let ours = try #require(m.inverse, "case \(i)")
      let glm: Matrix4<Double> = glmMatrix4 { out in withElements(m) { glm_oracle_mat4_inverse_d($0, out) } }
      #expect(ours.isApproximatelyEqual(to: glm, relativeTolerance: 64 * eps), "case \(i)")
      let det = withElements(m) { glm_oracle_mat4_determinant_d($0) }
      #expect(m.determinant.isApproximatelyEqual(to: det, relativeTolerance: 64 * eps), "case \(i)")
    }
  }

  @Test("4×4 inverse, Float: within 64ε on well-conditioned matrices")
  func inverseFloat() throws {
    var rng = SplitMix64(seed: 4)
    for i in 0..<Self.cases {
      let m: Matrix4<Float> = rng.wellConditionedMatrix4()
      let ours = try #require(m.inverse, "case \(i)")
      let glm: Matrix4<Float> = glmMatrix4 { out in withElements(m) { glm_oracle_mat4_inverse_f($0, out) } }
      #expect(ours.isApproximatelyEqual(to: glm, relativeTolerance: 64 * Float.ulpOfOne), "case \(i)")
    }
  }

  @Test("perspective and orthographic projections match GLM to 4ε")
  func projections() {
    var rng = SplitMix64(seed: 5)
    for i in 0..<Self.cases {
      let fovy: Double = rng.scalar(0.1...3.0), aspect: Double = rng.scalar(0.3...3)
      let near: Double = rng.scalar(0.001...1), far = near + rng.scalar(0.1...1000)
      let ours = Matrix4.perspective(
        verticalFieldOfView: .radians(fovy), aspect: aspect, near: near, far: far)
      let glm: Matrix4<Double> = glmMatrix4 { glm_oracle_perspective_d(fovy, aspect, near, far, $0) }
      #expect(ours.isApproximatelyEqual(to: glm, relativeTolerance: 4 * eps), "perspective case \(i)")

      let l: Double = rng.scalar(-10...0), r = l + rng.scalar(0.1...10)
      let b: Double = rng.scalar(-10...0), t = b + rng.scalar(0.1...10)
      let ortho = Matrix4.orthographic(left: l, right: r, bottom: b, top: t, near: near, far: far)
      let glmOrtho: Matrix4<Double> = glmMatrix4 { glm_oracle_ortho_d(l, r, b, t, near, far, $0) }
      #expect(ortho.isApproximatelyEqual(to: glmOrtho, relativeTolerance: 4 * eps), "ortho case \(i)")
    }
  }

  @Test("lookAt matches GLM to 16ε of the eye's scale")
  func lookAt() {
    var rng = SplitMix64(seed: 6)
    for i in 0..<Self.cases {
      let eye: SIMD3<Double> = rng.vector3(-50...50)
      let target = eye + rng.unitVector3() * rng.scalar(0.1...100)
      let up: SIMD3<Double> = rng.unitVector3()
      guard (target - eye).normalized().cross(up).length > 0.05 else { continue }
      let ours = Matrix4.lookAt(eye: eye, target: target, up: up)
      let glm: Matrix4<Double> = glmMatrix4 { out in
        withElements(eye) { e in
          withElements(target) { c in withElements(up) { u in glm_oracle_look_at_d(e, c, u, out) } }
        }
      }
      #expect(ours.isApproximatelyEqual(to: glm, relativeTolerance: 64 * eps), "case \(i)")
      // Our checked rigid version is the inverse of the view matrix.
      let pose = RigidTransform.lookAt(eye: eye, target: target, up: up)!
      #expect(
        (pose.matrix * glm).isApproximatelyEqual(
          to: .identity, absoluteTolerance: 1e-13 * Swift.max(1, eye.maxMagnitude)), "case \(i)")
    }
  }

  @Test("quaternion ↔ rotation matrix matches GLM, including 180° turns")
  func quaternionMatrix() {
    var rng = SplitMix64(seed: 7)
    var rotations: [Quaternion<Double>] = (0..<Self.cases).map { _ in rng.rotation() }
    // Half turns about axes and diagonals: where naive trace-based extraction breaks down.
    for axis: SIMD3<Double> in [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, -1, 1], [0, 1, -1]] {
      rotations.append(Quaternion(angle: .radians(.pi), axis: axis))
      rotations.append(Quaternion(angle: .radians(.pi - 1e-9), axis: axis))
    }
    for (i, q) in rotations.enumerated() {
      let glmMatrix = glmMatrix3 { out in withElements(q) { glm_oracle_mat3_from_quat_d($0, out) } }
      #expect(
        q.matrix.isApproximatelyEqual(to: glmMatrix, absoluteTolerance: 8 * eps), "to matrix, case \(i)")
      let glmQ = glmQuaternion { out in withElements(glmMatrix) { glm_oracle_quat_from_mat3_d($0, out) } }
      let ours = Quaternion(rotationMatrix: glmMatrix)
      #expect(ours.isSameRotation(as: glmQ, tolerance: 8 * eps), "from matrix, case \(i)")
      #expect(ours.isSameRotation(as: q, tolerance: 8 * eps), "round trip, case \(i)")
    }
  }

  @Test("angle-axis, rotation of vectors and lookRotation match GLM")
  func quaternionConstructions() throws {
    var rng = SplitMix64(seed: 8)
    for i in 0..<Self.cases {
      let angle: Double = rng.scalar(-7...7), axis: SIMD3<Double> = rng.unitVector3()
      let q = Quaternion(angle: .radians(angle), axis: axis)
      let glmQ = glmQuaternion { out in withElements(axis) { glm_oracle_angle_axis_d(angle, $0, out) } }
      #expect(
        q.vector.isApproximatelyEqual(to: glmQ.vector, absoluteTolerance: 4 * eps), "angle-axis, case \(i)")

      let v: SIMD3<Double> = rng.vector3(-10...10)
      let glmV = glmVector3 { out in
        withElements(q) { pq in withElements(v) { glm_oracle_quat_rotate_d(pq, $0, out) } }
      }
      #expect(
        q.act(v).isApproximatelyEqual(to: glmV, absoluteTolerance: 16 * eps * v.length), "rotate, case \(i)")

      let forward: SIMD3<Double> = rng.unitVector3(), up: SIMD3<Double> = rng.unitVector3()
      guard forward.cross(up).length > 0.05 else { continue }
      let look = try #require(Quaternion.lookRotation(forward: forward, up: up))
      let glmLook = glmQuaternion { out in
        withElements(forward) { f in withElements(up) { glm_oracle_quat_look_at_d(f, $0, out) } }
      }
      #expect(look.isSameRotation(as: glmLook, tolerance: 64 * eps), "lookRotation, case \(i)")
      #expect(
        look.act([0, 0, -1]).isApproximatelyEqual(to: forward, absoluteTolerance: 16 * eps), "case \(i)")
    }
  }

  @Test("slerp matches GLM to 1e-12 along the whole arc")
  func slerp() {
    var rng = SplitMix64(seed: 9)
    for i in 0..<Self.cases {
      let a: Quaternion<Double> = rng.rotation(), b: Quaternion<Double> = rng.rotation()
      let t: Double = rng.scalar(0...1)
      let ours = a.slerp(to: b, t)
      let glm = glmQuaternion { out in
        withElements(a) { pa in withElements(b) { glm_oracle_quat_slerp_d(pa, $0, t, out) } }
      }
      #expect(ours.isSameRotation(as: glm, tolerance: 1e-12), "case \(i)")
      // Constant angular speed: the angle covered is t times the whole.
      let whole = a.angle(to: b).radians
      #expect(abs(a.angle(to: ours).radians - t * whole) < 1e-9, "case \(i)")
    }
  }

  @Test("camera projection of world points equals glm::project with our projection matrix")
  func project() {
    var rng = SplitMix64(seed: 10)
    for i in 0..<Self.cases {
      let camera = CameraIntrinsics<Double>(
        fx: rng.scalar(200...2000), fy: rng.scalar(200...2000), cx: rng.scalar(200...800),
        cy: rng.scalar(200...600), width: 1000, height: 800)
      let worldFromCamera: RigidTransform<Double> = rng.rigidTransform()
      let pointInCamera = SIMD3<Double>(rng.scalar(-3...3), rng.scalar(-3...3), rng.scalar(-20 ... -0.5))
      let world = worldFromCamera.transformPoint(pointInCamera)
      let pixel = camera.projectARKit(worldFromCamera.inverse.transformPoint(world))!
      // GLM: window coordinates with y up from the bottom edge.
      let view = worldFromCamera.inverse.matrix, projection = camera.projectionMatrix(near: 0.1, far: 100)
      let viewport: [Double] = [0, 0, 1000, 800]
      let window = glmVector3 { out in
        withElements(world) { w in
          withElements(view) { v in
            withElements(projection) { p in
              viewport.withUnsafeBufferPointer { glm_oracle_project_d(w, v, p, $0.baseAddress!, out) }
            }
          }
        }
      }
      let glmPixel = SIMD2(window.x, 800 - window.y)
      #expect(pixel.isApproximatelyEqual(to: glmPixel, absoluteTolerance: 1e-9), "case \(i)")
    }
  }
}
