import ARMath

/// The nodes of a glTF document as its first animation poses them at a time: each animated
/// node's translation, rotation, scale and morph weights, interpolated as the specification's
/// samplers define (STEP, LINEAR with rotations slerped, CUBICSPLINE with its tangents); times
/// before the first key take the first, after the last the last.
struct GLTFAnimationPose {
  /// Per node: translation, rotation `[x, y, z, w]`, scale, as animated (nil: the node's own).
  var translation: [Int: SIMD3<Double>] = [:]
  var rotation: [Int: SIMD4<Double>] = [:]
  var scale: [Int: SIMD3<Double>] = [:]
  var weights: [Int: [Double]] = [:]

  /// The pose of the first animation of `container`'s document at `time` seconds (an empty pose
  /// when it has none).
  init(_ container: GLTFContainer, accessors: GLTFAccessors, time: Double) throws(GLTFError) {
    guard let animation = container.document.animations?.first else { return }
    let nodeCount = container.document.nodes?.count ?? 0
    for (c, channel) in animation.channels.enumerated() {
      let here = "/animations/0/channels/\(c)"
      guard let node = channel.target.node else { continue }  // an extension's target
      guard node >= 0, node < nodeCount else {
        throw GLTFError(
          path: container.path, pointer: here + "/target/node", reason: "node \(node) does not exist")
      }
      guard animation.samplers.indices.contains(channel.sampler) else {
        throw GLTFError(
          path: container.path, pointer: here + "/sampler",
          reason: "sampler \(channel.sampler) does not exist")
      }
      let sampler = animation.samplers[channel.sampler]
      let at = "/animations/0/samplers/\(channel.sampler)"
      let value = try Self.sample(
        sampler, accessors: accessors, time: time, path: channel.target.path, at: at)
      switch channel.target.path {
      case "translation": translation[node] = SIMD3(value[0], value[1], value[2])
      case "rotation":
        let q = SIMD4(value[0], value[1], value[2], value[3])
        let length = (q * q).sum().squareRoot()
        rotation[node] = length > 0 ? q / length : SIMD4(0, 0, 0, 1)
      case "scale": scale[node] = SIMD3(value[0], value[1], value[2])
      case "weights": weights[node] = value
      default:
        throw GLTFError(
          path: container.path, pointer: here + "/target/path",
          reason: "'\(channel.target.path.prefix(60))' is not translation, rotation, scale or weights")
      }
    }
  }

  /// The sampler's value at `time`: `components` numbers (3 or 4 for TRS, the morph target count
  /// for weights).
  static func sample(
    _ sampler: GLTFDocument.AnimationSampler, accessors: GLTFAccessors, time: Double, path: String,
    at here: String
  ) throws(GLTFError) -> [Double] {
    let (times, _) = try accessors.read(sampler.input, expect: ["SCALAR"], at: here + "/input")
    let outputTypes: Set<String> = path == "rotation" ? ["VEC4"] : path == "weights" ? ["SCALAR"] : ["VEC3"]
    let (values, width) = try accessors.read(sampler.output, expect: outputTypes, at: here + "/output")
    let interpolation = sampler.interpolation ?? "LINEAR"
    let cubic = interpolation == "CUBICSPLINE"
    guard ["LINEAR", "STEP", "CUBICSPLINE"].contains(interpolation) else {
      throw GLTFError(
        path: accessors.container.path, pointer: here + "/interpolation",
        reason: "'\(interpolation.prefix(60))' is not LINEAR, STEP or CUBICSPLINE")
    }
    // A key holds `n` numbers (the morph weights: all targets' at once), three times that for
    // a cubic spline (in-tangent, value, out-tangent).
    let perKey = values.count / (width * times.count) * width / (cubic ? 3 : 1)
    guard perKey > 0, values.count == times.count * perKey * (cubic ? 3 : 1),
      zip(times, times.dropFirst()).allSatisfy({ $0 < $1 })
    else {
      throw GLTFError(
        path: accessors.container.path, pointer: here,
        reason: "the output's \(values.count) numbers do not fit \(times.count) increasing key times")
    }
    func key(_ k: Int, _ part: Int) -> [Double] {  // part: 0 in-tangent, 1 value, 2 out-tangent
      let start = cubic ? (3 * k + part) * perKey : k * perKey
      return Array(values[start..<start + perKey])
    }
    guard time > times[0] else { return key(0, 1) }
    guard time < times[times.count - 1] else { return key(times.count - 1, 1) }
    var k = 0
    while times[k + 1] <= time { k += 1 }
    let (t0, t1) = (times[k], times[k + 1])
    let u = (time - t0) / (t1 - t0)
    switch interpolation {
    case "STEP": return key(k, 1)
    case "CUBICSPLINE":
      let dt = t1 - t0
      let (p0, m0, p1, m1) = (key(k, 1), key(k, 2), key(k + 1, 1), key(k + 1, 0))
      let (u2, u3) = (u * u, u * u * u)
      let (h00, h10, h01, h11) = (2 * u3 - 3 * u2 + 1, u3 - 2 * u2 + u, -2 * u3 + 3 * u2, u3 - u2)
      return (0..<perKey).map { i in h00 * p0[i] + h10 * dt * m0[i] + h01 * p1[i] + h11 * dt * m1[i] }
    default:
      let (a, b) = (key(k, 1), key(k + 1, 1))
      if path == "rotation" { return slerp(a, b, u) }
      return (0..<perKey).map { i in a[i] + (b[i] - a[i]) * u }
    }
  }

  /// Spherical interpolation of unit quaternions `[x, y, z, w]`, along the shorter arc.
  static func slerp(_ a: [Double], _ b: [Double], _ u: Double) -> [Double] {
    let qa = Quaternion(vector: SIMD4(a[0], a[1], a[2], a[3]))
    let qb = Quaternion(vector: SIMD4(b[0], b[1], b[2], b[3]))
    let q = qa.slerp(to: qb, u).vector
    return [q.x, q.y, q.z, q.w]
  }
}
