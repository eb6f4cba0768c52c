import ARMath
import ARTestSupport
import GLMOracle

/// The math core against GLM 0.9.9 (-O2, default configuration), single precision, 1M items.
func mathWorkloads(count n: Int) -> [Row] {
  var rng = SplitMix64(seed: 42)
  let label = n >= 1_000_000 && n % 1_000_000 == 0 ? "\(n / 1_000_000)M" : "\(n)"
  return [
    transformRow(count: n, label: label, random: &rng),
    slerpRow(count: n, label: label, random: &rng),
    inverseRow(count: n, label: label, random: &rng),
    projectionRow(count: n, label: label, random: &rng),
  ]
}

/// Transform points by a 4×4 matrix.
private func transformRow(count n: Int, label: String, random rng: inout SplitMix64) -> Row {
  let matrix: Matrix4<Float> = rng.matrix4()
  let points = (0..<n).map { _ in SIMD4<Float>(rng.vector3(-10...10), 1) }
  var transformed = [SIMD4<Float>](repeating: .zero, count: n)
  let matrixElements = matrix.columnMajorElements
  return compare("transform \(label) points by a 4x4 matrix", peer: "GLM") {
    points.withUnsafeBufferPointer { input in
      transformed.withUnsafeMutableBufferPointer { output in
        for i in 0..<n { output[i] = matrix * input[i] }
      }
    }
    blackHole(transformed)
  } peerRun: {
    points.withUnsafeBytes { input in
      transformed.withUnsafeMutableBytes { output in
        glm_bench_transform_points_f(
          matrixElements, input.baseAddress!.assumingMemoryBound(to: Float.self),
          output.baseAddress!.assumingMemoryBound(to: Float.self), n)
      }
    }
    blackHole(transformed)
  }
}

/// Quaternion slerps.
private func slerpRow(count n: Int, label: String, random rng: inout SplitMix64) -> Row {
  let qa: [Quaternion<Float>] = (0..<n).map { _ in rng.rotation() }
  let qb: [Quaternion<Float>] = (0..<n).map { _ in rng.rotation() }
  let ts: [Float] = (0..<n).map { _ in rng.scalar(0...1) }
  var slerped = [Quaternion<Float>](repeating: .identity, count: n)
  return compare("\(label) quaternion slerps", peer: "GLM") {
    qa.withUnsafeBufferPointer { a in
      qb.withUnsafeBufferPointer { b in
        ts.withUnsafeBufferPointer { t in
          slerped.withUnsafeMutableBufferPointer { out in
            for i in 0..<n { out[i] = a[i].slerp(to: b[i], t[i]) }
          }
        }
      }
    }
    blackHole(slerped)
  } peerRun: {
    qa.withUnsafeBytes { a in
      qb.withUnsafeBytes { b in
        slerped.withUnsafeMutableBytes { out in
          glm_bench_slerp_f(
            a.baseAddress!.assumingMemoryBound(to: Float.self),
            b.baseAddress!.assumingMemoryBound(to: Float.self),
            ts, out.baseAddress!.assumingMemoryBound(to: Float.self), n)
        }
      }
    }
    blackHole(slerped)
  }
}

/// General 4×4 inverses (ours checks for singularity; GLM does not).
private func inverseRow(count n: Int, label: String, random rng: inout SplitMix64) -> Row {
  let matrices: [Matrix4<Float>] = (0..<n).map { _ in rng.wellConditionedMatrix4() }
  var inverses = [Matrix4<Float>](repeating: .identity, count: n)
  return compare("\(label) 4x4 inverses (ours checked)", peer: "GLM") {
    matrices.withUnsafeBufferPointer { input in
      inverses.withUnsafeMutableBufferPointer { out in
        for i in 0..<n { out[i] = input[i].inverse ?? .identity }
      }
    }
    blackHole(inverses)
  } peerRun: {
    matrices.withUnsafeBytes { input in
      inverses.withUnsafeMutableBytes { out in
        glm_bench_inverse_f(
          input.baseAddress!.assumingMemoryBound(to: Float.self),
          out.baseAddress!.assumingMemoryBound(to: Float.self), n)
      }
    }
    blackHole(inverses)
  }
}

/// Camera projections, world point to pixel: ours through PinholeCamera (precomputed view), GLM
/// through glm::project with the equivalent view and projection matrices.
private func projectionRow(count n: Int, label: String, random rng: inout SplitMix64) -> Row {
  let camera = PinholeCamera<Float>(
    intrinsics: CameraIntrinsics(fx: 1500, fy: 1500, cx: 960, cy: 720, width: 1920, height: 1440),
    worldFromCamera: RigidTransform.lookAt(eye: [0, 1.6, 5], target: [0, 0, 0], up: [0, 1, 0])!)
  let worldPoints = (0..<n).map { _ in SIMD3<Float>(rng.vector3(-3...3)) }
  var pixels = [SIMD2<Float>](repeating: .zero, count: n)
  var windows = [Float](repeating: 0, count: 3 * n)
  let view = camera.cameraFromWorld.columnMajorElements
  let projection = camera.intrinsics.projectionMatrix(near: 0.1, far: 100).columnMajorElements
  let viewport: [Float] = [0, 0, 1920, 1440]
  // Each side reads its natural layout: SIMD3<Float> is padded to 16 bytes, GLM's vec3 is 12.
  let packedPoints = worldPoints.flatMap { [$0.x, $0.y, $0.z] }
  return compare("\(label) camera projections", peer: "GLM") {
    worldPoints.withUnsafeBufferPointer { input in
      pixels.withUnsafeMutableBufferPointer { out in
        for i in 0..<n { out[i] = camera.project(input[i])?.pixel ?? SIMD2(-1, -1) }
      }
    }
    blackHole(pixels)
  } peerRun: {
    packedPoints.withUnsafeBufferPointer { input in
      glm_bench_project_f(input.baseAddress!, view, projection, viewport, &windows, n)
    }
    blackHole(windows)
  }
}
