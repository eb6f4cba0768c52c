extension Mesh {
  /// The mesh with vertices merged when every attribute agrees within the tolerances: positions
  /// within `positionTolerance` (metres, per axis), normals, texture coordinates and colours
  /// within `attributeTolerance` per component. Triangles that collapse (two corners merged)
  /// are dropped; submesh ranges follow.
  ///
  /// Clusters greedily through a hash grid of cell size `positionTolerance`, looking at the 27
  /// cells around each vertex, so two vertices within tolerance always merge with the first
  /// cluster they reach, whichever cell they fall in.
  public func welded(positionTolerance: Float = 1e-6, attributeTolerance: Float = 1e-5) -> Mesh {
    let cell = Swift.max(positionTolerance, Float.leastNormalMagnitude)
    struct Cell: Hashable { var x, y, z: Int32 }
    func cellOf(_ p: SIMD3<Float>) -> Cell {
      // Clamp before converting: far-out coordinates (1e23 in a file, found by fuzzing) would
      // trap in the integer conversion. Clamped cells only crowd the grid's edge.
      let q = (p / cell).rounded(.down)
      return Cell(x: gridIndex(q.x), y: gridIndex(q.y), z: gridIndex(q.z))
    }
    func close<V: SIMD>(_ a: V, _ b: V, _ tolerance: Float) -> Bool where V.Scalar == Float {
      for i in a.indices where Swift.abs(a[i] - b[i]) > tolerance { return false }
      return true
    }
    var grid: [Cell: [UInt32]] = [:]
    var remap = [UInt32](repeating: 0, count: vertexCount)
    var out = Mesh(
      positions: [], normals: [], indices: [], submeshes: [], materials: materials, origin: origin)
    for v in 0..<vertexCount {
      let p = positions[v], c = cellOf(p)
      var found: UInt32? = nil
      search: for dx in -1...1 {
        for dy in -1...1 {
          for dz in -1...1 {
            for candidate in grid[Cell(x: c.x &+ Int32(dx), y: c.y &+ Int32(dy), z: c.z &+ Int32(dz))] ?? [] {
              let k = Int(candidate)
              if close(out.positions[k], p, positionTolerance)
                && close(out.normals[k], normals[v], attributeTolerance)
                && (texcoords.isEmpty || close(out.texcoords[k], texcoords[v], attributeTolerance))
                && (texcoords1.isEmpty || close(out.texcoords1[k], texcoords1[v], attributeTolerance))
                && (colors.isEmpty || close(out.colors[k], colors[v], attributeTolerance))
              {
                found = candidate
                break search
              }
            }
          }
        }
      }
      if let found {
        remap[v] = found
        continue
      }
      let index = UInt32(out.positions.count)
      remap[v] = index
      out.positions.append(p)
      out.normals.append(normals[v])
      if !texcoords.isEmpty { out.texcoords.append(texcoords[v]) }
      if !texcoords1.isEmpty { out.texcoords1.append(texcoords1[v]) }
      if !colors.isEmpty { out.colors.append(colors[v]) }
      grid[c, default: []].append(index)
    }
    for submesh in submeshes {
      let first = out.triangleCount
      for t in submesh.triangles {
        let (a, b, c) = (
          remap[Int(indices[3 * t])], remap[Int(indices[3 * t + 1])], remap[Int(indices[3 * t + 2])]
        )
        guard a != b && b != c && a != c else { continue }
        out.indices += [a, b, c]
      }
      if out.triangleCount > first {
        out.submeshes.append(Submesh(triangles: first..<out.triangleCount, material: submesh.material))
      }
    }
    return out
  }
}

/// A grid coordinate as an integer, clamped to ±2e9 (NaN becomes the lower bound).
private func gridIndex(_ x: Float) -> Int32 {
  x >= -2e9 ? (x <= 2e9 ? Int32(x) : 2_000_000_000) : -2_000_000_000
}
