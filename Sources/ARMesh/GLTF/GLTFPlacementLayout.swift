import ARMath

/// Where each placed primitive's vertices and indices go in the mesh being built, and the work
/// of writing them cut into pieces of about 64k elements that threads take in turn: a model of
/// many meshes, or of one large mesh, is transformed on every core.
struct GLTFPlacementLayout {
  /// Each placement's first vertex and first index in the whole arrays.
  private(set) var vertexStarts: [Int] = [], indexStarts: [Int] = []
  /// Each placement's vertices: its points, or three a triangle where it has no normals.
  private(set) var vertexCounts: [Int] = []
  /// The vertices and indices all placements add.
  private(set) var vertices = 0, indices = 0
  /// A piece of work: a placement's triangles `triangles` and, with normals, its vertices
  /// `vertices` (without, the triangles' own corners).
  private var pieces: [(placement: Int, vertices: Range<Int>, triangles: Range<Int>)] = []

  /// Elements a piece writes, about: enough to outweigh a thread's hand-over.
  static let pieceSize = 1 << 16

  /// The vertices primitive `p` adds: its points, or without normals three a triangle (flat
  /// normals, as the specification asks).
  static func vertices(of p: GLTFPrimitiveAttributes) -> Int {
    p.normals == nil ? p.triangles.count / 3 * 3 : p.positions.count
  }

  init(_ placements: [GLTFGeometry.Placement]) {
    for (k, placement) in placements.enumerated() {
      let p = placement.attributes
      let triangles = p.triangles.count / 3
      let count = Self.vertices(of: p)
      vertexStarts.append(vertices)
      indexStarts.append(indices)
      vertexCounts.append(count)
      vertices += count
      indices += 3 * triangles
      let parts = Swift.max(1, (count + 3 * triangles) / Self.pieceSize)
      for part in 0..<parts {
        let span = { (n: Int) in (part * n / parts)..<((part + 1) * n / parts) }
        pieces.append((k, p.normals == nil ? 0..<0 : span(count), span(triangles)))
      }
    }
  }

  /// Every placement's vertices (offsets from `origin`), normals and indices, written on every
  /// core into arrays made once, and the bounds of the vertices in the asset's frame (nil for
  /// none).
  func write(_ placements: [GLTFGeometry.Placement], origin: SIMD3<Double>) -> (
    positions: [SIMD3<Float>], normals: [SIMD3<Float>], indices: [UInt32],
    bounds: (SIMD3<Double>, SIMD3<Double>)?
  ) {
    let boxes = LockedResults<(SIMD3<Double>, SIMD3<Double>)>(count: pieces.count)
    // Made unset: every element is written below, and the pages are first touched by the
    // threads writing them, not here on one.
    var positions = [SIMD3<Float>](unsafeUninitializedCapacity: vertices) { _, n in n = vertices }
    var normals = [SIMD3<Float>](unsafeUninitializedCapacity: vertices) { _, n in n = vertices }
    var indices = [UInt32](unsafeUninitializedCapacity: self.indices) { _, n in n = self.indices }
    positions.withUnsafeMutableBufferPointer { p in
      normals.withUnsafeMutableBufferPointer { n in
        indices.withUnsafeMutableBufferPointer { i in
          let out = (
            positions: UnsafeSendableMutablePointer(Self.start(p)),
            normals: UnsafeSendableMutablePointer(Self.start(n)),
            indices: UnsafeSendableMutablePointer(Self.start(i))
          )
          let pieces = pieces, vertexStarts = vertexStarts, indexStarts = indexStarts
          forEachBand(pieces.count, threads: pieces.count) { k in
            let piece = pieces[k]
            boxes.set(k) {
              Self.write(
                placements[piece.placement], vertices: piece.vertices, triangles: piece.triangles,
                vertexStart: vertexStarts[piece.placement], origin: origin, positions: out.positions.pointer,
                normals: out.normals.pointer, indices: out.indices.pointer + indexStarts[piece.placement])
            }
          }
        }
      }
    }
    let bounds = boxes.all().reduce(nil) { (box: (SIMD3<Double>, SIMD3<Double>)?, part) in
      guard case .success(let (low, high)) = part, low.x <= high.x else { return box }
      guard let box else { return (low, high) }
      return (pointwiseMin(box.0, low), pointwiseMax(box.1, high))
    }
    return (positions, normals, indices, bounds)
  }

  /// Writes placement `placement`'s `vertices` and `triangles` (its triangles' corners, without
  /// normals): `positions` and `normals` point at the whole arrays' vertex 0 (the placement's
  /// first is `vertexStart`), `indices` at the placement's first index; positions are offsets
  /// from `origin`. Returns the box of the vertices written, in the asset's frame (empty, low
  /// above high, for none).
  private static func write(
    _ placement: GLTFGeometry.Placement, vertices: Range<Int>, triangles: Range<Int>, vertexStart: Int,
    origin: SIMD3<Double>, positions: UnsafeMutablePointer<SIMD3<Float>>,
    normals: UnsafeMutablePointer<SIMD3<Float>>, indices: UnsafeMutablePointer<UInt32>
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    var low = SIMD3<Double>(repeating: .infinity), high = -low
    let world = placement.world, linear = placement.world.linear
    let mirrored = linear.determinant < 0
    let base = UInt32(vertexStart)
    let p = placement.attributes
    p.positions.withUnsafeBufferPointer { points in
      p.triangles.withUnsafeBufferPointer { corners in
        if let given = p.normals {
          let normalMatrix = linear.inverse?.transposed ?? linear
          given.withUnsafeBufferPointer { given in
            for v in vertices {
              let q = world.transformPoint(points[v])
              (low, high) = (pointwiseMin(low, q), pointwiseMax(high, q))
              positions[vertexStart + v] = SIMD3<Float>(q - origin)
              normals[vertexStart + v] = unit(normalMatrix * given[v])
            }
          }
          for t in triangles {
            // Indices below the vertex count, which fits: no overflow to check.
            let (a, b, c) = (corners[3 * t] &+ base, corners[3 * t + 1] &+ base, corners[3 * t + 2] &+ base)
            indices[3 * t] = a
            indices[3 * t + 1] = mirrored ? c : b
            indices[3 * t + 2] = mirrored ? b : c
          }
          return
        }
        // Flat: each triangle its own three vertices, in order, with its face's normal.
        for t in triangles {
          let a = world.transformPoint(points[Int(corners[3 * t])])
          let b = world.transformPoint(points[Int(corners[3 * t + 1])])
          let c = world.transformPoint(points[Int(corners[3 * t + 2])])
          low = pointwiseMin(pointwiseMin(low, a), pointwiseMin(b, c))
          high = pointwiseMax(pointwiseMax(high, a), pointwiseMax(b, c))
          let normal = unit((b - a).cross(c - a) * (mirrored ? -1 : 1))
          let v = vertexStart + 3 * t
          (positions[v], positions[v + 1], positions[v + 2]) = (
            SIMD3<Float>(a - origin), SIMD3<Float>(b - origin), SIMD3<Float>(c - origin)
          )
          (normals[v], normals[v + 1], normals[v + 2]) = (normal, normal, normal)
          let first = base + UInt32(3 * t)
          indices[3 * t] = first
          indices[3 * t + 1] = mirrored ? first + 2 : first + 1
          indices[3 * t + 2] = mirrored ? first + 1 : first + 2
        }
      }
    }
    return (low, high)
  }

  /// A buffer's first element; for an empty one, which nothing is written to, a pointer that
  /// is never followed (an empty array's buffer may have no address).
  private static func start<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UnsafeMutablePointer<T> {
    buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<T>.alignment)!
  }

  private static func unit(_ v: SIMD3<Double>) -> SIMD3<Float> {
    let length = (v * v).sum().squareRoot()
    guard length > 0, length.isFinite else { return SIMD3(0, 1, 0) }
    let u = v / length
    return SIMD3(Float(u.x), Float(u.y), Float(u.z))
  }
}
