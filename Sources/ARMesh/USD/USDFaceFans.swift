/// A USD mesh's polygons as triangle fans: face `f`'s `faceVertexCounts[f]` corners, taken in
/// turn from `faceVertexIndices`, make `n − 2` triangles around its first corner (left-handed
/// faces turned to ARScene's counter-clockwise fronts); faces of fewer than three corners draw
/// nothing, as USD allows them in holes and curves.
struct USDFaceFans {
  /// Three point indices a triangle.
  private(set) var triangles: [UInt32] = []
  /// Each triangle corner's face-vertex index and face, when asked for (primvars and normals
  /// that vary by face need them).
  private(set) var corners: [(faceVertex: Int, face: Int)] = []

  /// The fans of `counts` over `indices`, every index checked to name one of `pointCount`
  /// points: a face that runs past the indices, or names a point past the points, is an error
  /// naming the first such face (`prim`'s attribute, in `path`).
  init(
    counts: [Int64], indices: [Int64], pointCount: Int, leftHanded: Bool, keepCorners: Bool, prim: String,
    path: String
  ) throws(USDError) {
    // One pass over the counts and one over the indices they use check everything; only a
    // mesh that fails walks its faces again to say which one.
    var used = 0, triangleCount = 0, valid = true
    for n in counts {
      guard n >= 0, n <= indices.count - used else {
        valid = false
        break
      }
      used += Int(n)
      triangleCount += Swift.max(0, Int(n) - 2)
    }
    if valid {
      var (low, high) = (Int64.max, Int64.min)
      for k in 0..<used {
        low = Swift.min(low, indices[k])
        high = Swift.max(high, indices[k])
      }
      valid = used == 0 || (low >= 0 && high < Int64(pointCount))
    }
    guard valid else {
      throw Self.firstFault(counts: counts, indices: indices, pointCount: pointCount, prim: prim, path: path)
    }
    triangles = [UInt32](unsafeUninitializedCapacity: 3 * triangleCount) { out, written in
      written = 3 * triangleCount
      // No triangles (and perhaps no buffer): nothing to write.
      guard let base = out.baseAddress else { return }
      indices.withUnsafeBufferPointer { indices in
        counts.withUnsafeBufferPointer { counts in
          Self.fan(counts, indices, leftHanded: leftHanded, into: base)
        }
      }
    }
    guard keepCorners else { return }
    corners.reserveCapacity(3 * triangleCount)
    var start = 0
    for (f, n) in counts.enumerated() {
      for k in stride(from: 1, to: Int(n) - 1, by: 1) {
        let (second, third) = leftHanded ? (k + 1, k) : (k, k + 1)
        corners.append((start, f))
        corners.append((start + second, f))
        corners.append((start + third, f))
      }
      start += Int(n)
    }
  }

  /// Writes the fans of `counts` over `indices` (checked) to `out`: quads, the commonest face,
  /// as two triangles at once, other faces corner by corner.
  private static func fan(
    _ counts: UnsafeBufferPointer<Int64>, _ indices: UnsafeBufferPointer<Int64>, leftHanded: Bool,
    into out: UnsafeMutablePointer<UInt32>
  ) {
    @inline(__always) func index(_ k: Int) -> UInt32 { UInt32(truncatingIfNeeded: indices[k]) }
    var (start, t) = (0, 0)
    for n in counts {
      // A face of fewer than three corners draws nothing, and its first index may lie past
      // the last (a count of 0 at the end): not read.
      guard n >= 3 else {
        start &+= Int(n)
        continue
      }
      let first = index(start)
      if n == 4 {
        let (b, c, d) = (index(start &+ 1), index(start &+ 2), index(start &+ 3))
        out[t] = first
        out[t &+ 3] = first
        (out[t &+ 1], out[t &+ 2], out[t &+ 4], out[t &+ 5]) = leftHanded ? (c, b, d, c) : (b, c, c, d)
        t &+= 6
      } else {
        for k in stride(from: 1, to: Int(n) - 1, by: 1) {
          let (b, c) = (index(start &+ k), index(start &+ k &+ 1))
          out[t] = first
          (out[t &+ 1], out[t &+ 2]) = leftHanded ? (c, b) : (b, c)
          t &+= 3
        }
      }
      start &+= Int(n)
    }
  }

  /// The error for the first face, in order, that runs past the indices or names a point past
  /// the points.
  private static func firstFault(
    counts: [Int64], indices: [Int64], pointCount: Int, prim: String, path: String
  ) -> USDError {
    var start = 0
    for (f, count) in counts.enumerated() {
      guard count >= 0, count <= indices.count - start else {
        return USDError(
          path: path, place: prim + ".faceVertexCounts",
          reason: "face \(f)'s \(count) corners run past the \(indices.count) faceVertexIndices")
      }
      for k in start..<start + Int(count) where indices[k] < 0 || indices[k] >= Int64(pointCount) {
        return USDError(
          path: path, place: prim + ".faceVertexIndices",
          reason: "face \(f) names a point past the \(pointCount) points")
      }
      start += Int(count)
    }
    return USDError(path: path, place: prim + ".faceVertexIndices", reason: "a face that cannot be read")
  }
}
