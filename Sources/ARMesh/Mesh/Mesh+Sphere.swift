extension Mesh {
  /// A sphere of `radius` metres around `center`: an icosahedron subdivided `subdivisions`
  /// times (20·4ⁿ triangles; 2 gives 320, round to a pixel at marker sizes) with exact unit
  /// normals, counter-clockwise from outside. For point markers such as acupressure points.
  public static func sphere(
    center: SIMD3<Float> = .zero, radius: Float, subdivisions: Int = 2, material: Material = .fallback
  ) -> Mesh {
    let t: Float = (1 + Float(5).squareRoot()) / 2
    var directions: [SIMD3<Float>] = [
      [-1, t, 0], [1, t, 0], [-1, -t, 0], [1, -t, 0], [0, -1, t], [0, 1, t],
      [0, -1, -t], [0, 1, -t], [t, 0, -1], [t, 0, 1], [-t, 0, -1], [-t, 0, 1],
    ].map { $0 / (($0 * $0).sum()).squareRoot() }
    var faces: [(Int, Int, Int)] = [
      (0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
      (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
      (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1),
    ]
    for _ in 0..<max(0, subdivisions) {
      var midpoints: [Int: Int] = [:]  // edge key → new vertex
      func midpoint(_ a: Int, _ b: Int) -> Int {
        let key = min(a, b) * 1_000_003 + max(a, b)
        if let m = midpoints[key] { return m }
        let m = (directions[a] + directions[b]) / 2
        directions.append(m / ((m * m).sum()).squareRoot())
        midpoints[key] = directions.count - 1
        return directions.count - 1
      }
      faces = faces.flatMap { f -> [(Int, Int, Int)] in
        let ab = midpoint(f.0, f.1), bc = midpoint(f.1, f.2), ca = midpoint(f.2, f.0)
        return [(f.0, ab, ca), (f.1, bc, ab), (f.2, ca, bc), (ab, bc, ca)]
      }
    }
    return Mesh(
      positions: directions.map { center + radius * $0 }, normals: directions,
      indices: faces.flatMap { [UInt32($0.0), UInt32($0.1), UInt32($0.2)] }, materials: [material])
  }
}
