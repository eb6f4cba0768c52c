import ARMath
import ARTestSupport
import Testing

/// Identities that must hold for every input, on seeded random cases.
@Suite("ARMath properties")
struct PropertyTests {
  static let cases = 2_000

  @Test("T·T⁻¹ = I for rigid transforms, their matrices and affine inverses")
  func rigidInverse() throws {
    var rng = SplitMix64(seed: 101)
    for i in 0..<Self.cases {
      let t: RigidTransform<Double> = rng.rigidTransform(extent: 100)
      let p: SIMD3<Double> = rng.vector3(-100...100)
      #expect(
        (t * t.inverse).transformPoint(p).isApproximatelyEqual(to: p, absoluteTolerance: 1e-12), "case \(i)")
      #expect(
        t.inverse.transformPoint(t.transformPoint(p)).isApproximatelyEqual(to: p, absoluteTolerance: 1e-12),
        "case \(i)")
      let m = t.matrix
      let affine = try #require(m.affineInverse)
      #expect((m * affine).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-13), "case \(i)")
      #expect(affine.isApproximatelyEqual(to: t.inverse.matrix, absoluteTolerance: 1e-12), "case \(i)")
      let general = try #require(m.inverse)
      #expect((general * m).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-12), "case \(i)")
    }
  }

  @Test("composition is associative and matches the matrix product")
  func composition() {
    var rng = SplitMix64(seed: 102)
    for i in 0..<Self.cases {
      let a: RigidTransform<Double> = rng.rigidTransform(), b: RigidTransform<Double> = rng.rigidTransform()
      let c: RigidTransform<Double> = rng.rigidTransform()
      #expect(
        ((a * b) * c).matrix.isApproximatelyEqual(to: (a * (b * c)).matrix, absoluteTolerance: 1e-12),
        "case \(i)")
      #expect(
        (a * b).matrix.isApproximatelyEqual(to: a.matrix * b.matrix, absoluteTolerance: 1e-12), "case \(i)")
      let d: SIMD3<Double> = rng.unitVector3()
      #expect(
        (a * b).transformDirection(d).isApproximatelyEqual(
          to: a.transformDirection(b.transformDirection(d)), absoluteTolerance: 1e-14), "case \(i)")
    }
  }

  @Test("rotations stay unit quaternions, orthonormal and proper")
  func quaternionNormalisation() {
    var rng = SplitMix64(seed: 103)
    var q = Quaternion<Double>.identity
    for i in 0..<Self.cases {
      // Products of many rotations drift; normalisation must keep them rotations.
      q = (q * rng.rotation()).normalized()
      #expect(abs(q.norm - 1) < 1e-15, "case \(i)")
      let m = q.matrix
      #expect((m.transposed * m).isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-14), "case \(i)")
      #expect(abs(m.determinant - 1) < 1e-14, "case \(i)")
      let scaled = Quaternion(vector: q.vector * rng.scalar(0.001...1000))
      #expect(scaled.normalized().isSameRotation(as: q, tolerance: 1e-15), "case \(i)")
      #expect((q * q.conjugate).isSameRotation(as: .identity, tolerance: 1e-15), "case \(i)")
      #expect((scaled * scaled.inverse).isSameRotation(as: .identity, tolerance: 1e-13), "case \(i)")
    }
  }

  @Test("angle and axis survive the round trip through a quaternion")
  func angleAxis() throws {
    var rng = SplitMix64(seed: 104)
    for i in 0..<Self.cases {
      let angle: Double = rng.scalar(0.001...(Double.pi - 0.001)), axis: SIMD3<Double> = rng.unitVector3()
      let q = Quaternion(angle: .radians(angle), axis: axis * rng.scalar(0.1...10))
      #expect(abs(q.angle.radians - angle) < 1e-12, "case \(i)")
      #expect(try #require(q.axis).isApproximatelyEqual(to: axis, absoluteTolerance: 1e-12), "case \(i)")
    }
  }

  @Test("project(unproject(p)) = p, and unproject(project(X)) = X at X's depth")
  func projectUnproject() throws {
    var rng = SplitMix64(seed: 105)
    for i in 0..<Self.cases {
      let camera = CameraIntrinsics<Double>(
        fx: rng.scalar(100...3000), fy: rng.scalar(100...3000), cx: rng.scalar(0...1920),
        cy: rng.scalar(0...1440), width: 1920, height: 1440)
      let pixel = SIMD2<Double>(rng.scalar(0...1920), rng.scalar(0...1440))
      let depth: Double = rng.scalar(0.01...1000)
      let back = try #require(camera.project(camera.unproject(pixel, depth: depth)))
      #expect(back.isApproximatelyEqual(to: pixel, absoluteTolerance: 1e-9), "case \(i)")
      let point = SIMD3<Double>(rng.scalar(-5...5), rng.scalar(-5...5), rng.scalar(0.1...50))
      let projected = try #require(camera.project(point))
      #expect(
        camera.unproject(projected, depth: point.z).isApproximatelyEqual(to: point, relativeTolerance: 1e-13),
        "case \(i)")
    }
  }

  @Test("the projection matrix sends points to the pixels the intrinsics give")
  func projectionMatrixAgreesWithIntrinsics() throws {
    var rng = SplitMix64(seed: 106)
    for i in 0..<Self.cases {
      let (w, h) = (Int.random(in: 16...4096, using: &rng), Int.random(in: 16...4096, using: &rng))
      let camera = CameraIntrinsics<Double>(
        fx: rng.scalar(100...3000), fy: rng.scalar(100...3000), cx: rng.scalar(0...Double(w)),
        cy: rng.scalar(0...Double(h)), width: w, height: h)
      let p = SIMD3<Double>(rng.scalar(-5...5), rng.scalar(-5...5), rng.scalar(-50 ... -0.2))
      let ndc = camera.projectionMatrix(near: 0.1, far: 100).projectPoint(p)
      let pixel = SIMD2((ndc.x + 1) * Double(w) / 2, (1 - ndc.y) * Double(h) / 2)
      #expect(
        pixel.isApproximatelyEqual(to: try #require(camera.projectARKit(p)), absoluteTolerance: 1e-9),
        "case \(i)")
    }
    // Depth: near maps to −1, far to +1.
    let camera = CameraIntrinsics<Double>(verticalFieldOfView: .degrees(60), width: 640, height: 480)
    let m = camera.projectionMatrix(near: 0.5, far: 20)
    #expect(abs(m.projectPoint([0, 0, -0.5]).z + 1) < 1e-15)
    #expect(abs(m.projectPoint([0, 0, -20]).z - 1) < 1e-14)
    #expect(abs(camera.verticalFieldOfView.degrees - 60) < 1e-12)
  }

  @Test("converting between camera conventions twice is the identity")
  func conventionRoundTrip() {
    var rng = SplitMix64(seed: 107)
    for i in 0..<Self.cases {
      let v: SIMD3<Double> = rng.vector3(-10...10)
      for (a, b) in [(CameraConvention.arkit, CameraConvention.opencv), (.opencv, .arkit), (.arkit, .arkit)] {
        #expect(
          CameraConvention.convert(CameraConvention.convert(v, from: a, to: b), from: b, to: a) == v,
          "case \(i)")
        let flip: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: a, to: b)
        let back: RigidTransform<Double> = CameraConvention.cameraFromCamera(from: b, to: a)
        #expect((flip * back).matrix.isApproximatelyEqual(to: .identity, absoluteTolerance: 0), "case \(i)")
        #expect(flip.transformPoint(v) == CameraConvention.convert(v, from: a, to: b), "case \(i)")
      }
      // A point in front of an ARKit camera is in front of the OpenCV camera, at the same pixel.
      let camera = CameraIntrinsics<Double>(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
      let arkitPoint = SIMD3<Double>(v.x, v.y, -abs(v.z) - 0.1)
      let cvPoint = CameraConvention.convert(arkitPoint, from: .arkit, to: .opencv)
      #expect(cvPoint.z > 0 && camera.projectARKit(arkitPoint) == camera.project(cvPoint), "case \(i)")
    }
    // ARKit y is up: a point above the optical axis lands in the image's upper half.
    let camera = CameraIntrinsics<Double>(fx: 500, fy: 500, cx: 320, cy: 240, width: 640, height: 480)
    #expect(camera.projectARKit([0, 1, -5])!.y < 240)
    #expect(camera.project([0, 1, 5])!.y > 240)
  }

  @Test("vector basics: cross is orthogonal and right-handed, lerp hits its ends")
  func vectors() {
    var rng = SplitMix64(seed: 108)
    #expect(SIMD3<Double>(1, 0, 0).cross([0, 1, 0]) == [0, 0, 1])
    for i in 0..<Self.cases {
      let a: SIMD3<Double> = rng.vector3(), b: SIMD3<Double> = rng.vector3()
      let c = a.cross(b)
      #expect(abs(c.dot(a)) < 1e-15 && abs(c.dot(b)) < 1e-15, "case \(i)")
      #expect(
        a.lerp(to: b, 0) == a && a.lerp(to: b, 1).isApproximatelyEqual(to: b, absoluteTolerance: 1e-15),
        "case \(i)")
      let p = a.anyPerpendicular()
      #expect(abs(p.dot(a)) < 1e-14 && abs(p.length - 1) < 1e-15, "case \(i)")
      #expect(abs(a.normalized().length - 1) < 1e-15, "case \(i)")
    }
  }

  @Test("angles wrap into their documented ranges")
  func angles() {
    var rng = SplitMix64(seed: 109)
    for i in 0..<Self.cases {
      let a = Angle<Double>(radians: rng.scalar(-100...100))
      let pm = a.wrappedToPlusMinusPi.radians, zero = a.wrappedToZeroTwoPi.radians
      #expect(pm > -.pi && pm <= .pi, "case \(i)")
      #expect(zero >= 0 && zero < 2 * .pi, "case \(i)")
      #expect(abs(Double.sin(pm) - a.sin) < 1e-13 && abs(Double.cos(zero) - a.cos) < 1e-13, "case \(i)")
    }
    #expect(Angle<Double>.degrees(180).radians == .pi)
    #expect(Angle<Double>(radians: -.pi).wrappedToPlusMinusPi.radians == .pi)
    #expect(Angle<Double>(radians: -1e-300).wrappedToZeroTwoPi.radians < 2 * .pi)
  }

  @Test("the lanes' square root has the scalar square root's bits, NaN below zero")
  func laneSquareRoot() {
    var rng = SplitMix64(seed: 110)
    for i in 0..<Self.cases {
      // Magnitudes from subnormal to huge, and the edge values.
      let special: [Float] = [0, -0, 1, .infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
      let v = SIMD4<Float>(
        i < special.count ? special[i] : Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &rng)),
        Float.random(in: 0...1, using: &rng), Float.random(in: 0...1e6, using: &rng),
        Float.random(in: 1e-30...1e-20, using: &rng))
      let root = LaneMath.squareRoot(v)
      for lane in 0..<4 {
        #expect(root[lane].bitPattern == v[lane].squareRoot().bitPattern, "case \(i) lane \(lane)")
      }
      #expect(LaneMath.squareRoot(-v - 1).x.isNaN, "case \(i)")
    }
  }
}
