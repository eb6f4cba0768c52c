import ARMath
import CVectorKernels

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
    p.hasNormals ? p.positions.count : p.triangles.count / 3 * 3
  }

  /// The pieces of work primitive `p`'s placement is cut into.
  private static func pieces(of p: GLTFPrimitiveAttributes) -> Int {
    Swift.max(1, (vertices(of: p) + p.triangles.count / 3 * 3) / pieceSize)
  }

  /// Whether primitive `p` is placed in one piece of work, so that normals made as it is
  /// placed (``GLTFPrimitiveAttributes/smoothNormalsPending``) are made once: each piece of a
  /// larger one would sum every triangle again for its share of the vertices.
  static func isOnePiece(_ p: GLTFPrimitiveAttributes) -> Bool { pieces(of: p) == 1 }

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
      // Normals made as it is placed need every triangle: one piece, whatever its size.
      let parts = p.smoothNormalsPending ? 1 : Self.pieces(of: p)
      for part in 0..<parts {
        let span = { (n: Int) in (part * n / parts)..<((part + 1) * n / parts) }
        pieces.append((k, p.hasNormals ? span(count) : 0..<0, span(triangles)))
      }
    }
  }

  /// Every placement's vertices (offsets from `origin`), normals and indices, written on every
  /// core into arrays made once, and the bounds of the vertices in the asset's frame (nil for
  /// none). `wide`: whether the AVX2 loops run (the same bits as the portable ones).
  func write(
    _ placements: [GLTFGeometry.Placement], origin: SIMD3<Double>, wide: Bool = Self.wideKernels
  ) -> (
    positions: [SIMD3<Float>], normals: [SIMD3<Float>], indices: [UInt32],
    bounds: (SIMD3<Double>, SIMD3<Double>)?
  ) {
    let boxes = LockedResults<(SIMD3<Double>, SIMD3<Double>)>(count: pieces.count)
    // Made unset: every element is written below, and the pages are first touched by the
    // threads writing them, not here on one; on huge pages where the kernel gives them.
    var positions = [SIMD3<Float>](unsafeUninitializedCapacity: vertices) { b, n in
      HugePages.advise(b)
      n = vertices
    }
    var normals = [SIMD3<Float>](unsafeUninitializedCapacity: vertices) { b, n in
      HugePages.advise(b)
      n = vertices
    }
    var indices = [UInt32](unsafeUninitializedCapacity: self.indices) { b, n in
      HugePages.advise(b)
      n = self.indices
    }
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
                normals: out.normals.pointer, indices: out.indices.pointer + indexStarts[piece.placement],
                wide: wide)
            }
          }
        }
      }
    }
    return (positions, normals, indices, Self.union(boxes))
  }

  /// The bounds in the asset's frame of the vertices ``write(_:origin:)`` would write (nil for
  /// none), found on every core in the pieces the writing is cut into, without writing them:
  /// each vertex through its placement's transform, as written, for what needs the mesh's
  /// extent but not the mesh (`model stats`).
  func bounds(_ placements: [GLTFGeometry.Placement]) -> (SIMD3<Double>, SIMD3<Double>)? {
    let boxes = LockedResults<(SIMD3<Double>, SIMD3<Double>)>(count: pieces.count)
    let pieces = pieces
    forEachBand(pieces.count, threads: pieces.count) { k in
      let piece = pieces[k], placement = placements[piece.placement]
      // A placement with normals writes its points; one without, its triangles' corners.
      let triangles = placement.attributes.hasNormals ? 0..<0 : piece.triangles
      boxes.set(k) { Self.bounds(placement, vertices: piece.vertices, triangles: triangles) }
    }
    return Self.union(boxes)
  }

  /// The box of placement `placement`'s `vertices` (its points) and `triangles`' corners through
  /// its transform (empty, low above high, for none).
  private static func bounds(
    _ placement: GLTFGeometry.Placement, vertices: Range<Int>, triangles: Range<Int>
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    var box = Box()
    let world = placement.world, p = placement.attributes
    p.positions.withReader { point in
      for v in vertices { box.widen(world.transformPoint(point(v))) }
      p.triangles.withUnsafeBufferPointer { corners in
        for k in (3 * triangles.lowerBound)..<(3 * triangles.upperBound) {
          box.widen(world.transformPoint(point(Int(corners[k]))))
        }
      }
    }
    return box.bounds
  }

  /// The union of the pieces' boxes (nil when every one is empty).
  private static func union(
    _ boxes: LockedResults<(SIMD3<Double>, SIMD3<Double>)>
  ) -> (SIMD3<Double>, SIMD3<Double>)? {
    boxes.all().reduce(nil) { (box: (SIMD3<Double>, SIMD3<Double>)?, part) in
      guard case .success(let (low, high)) = part else { return box }
      // A piece with a vertex that is not a number makes the whole box so.
      if low.x.isNaN || box?.0.x.isNaN == true { return (SIMD3(repeating: .nan), SIMD3(repeating: .nan)) }
      guard low.x <= high.x else { return box }
      guard let box else { return (low, high) }
      return (pointwiseMin(box.0, low), pointwiseMax(box.1, high))
    }
  }

  /// Writes placement `placement`'s `vertices` and `triangles` (its triangles' corners, without
  /// normals): `positions` and `normals` point at the whole arrays' vertex 0 (the placement's
  /// first is `vertexStart`), `indices` at the placement's first index; positions are offsets
  /// from `origin`. Returns the box of the vertices written, in the asset's frame (empty, low
  /// above high, for none). `wide`: with the AVX2 loops.
  private static func write(
    _ placement: GLTFGeometry.Placement, vertices: Range<Int>, triangles: Range<Int>, vertexStart: Int,
    origin: SIMD3<Double>, positions: UnsafeMutablePointer<SIMD3<Float>>,
    normals: UnsafeMutablePointer<SIMD3<Float>>, indices: UnsafeMutablePointer<UInt32>, wide: Bool
  ) -> (SIMD3<Double>, SIMD3<Double>) {
    var box = Box()
    let world = placement.world, linear = placement.world.linear
    let mirrored = linear.determinant < 0
    let base = UInt32(vertexStart)
    let p = placement.attributes
    p.positions.withReader { point in
      p.triangles.withUnsafeBufferPointer { corners in
        if p.hasNormals {
          let normalMatrix = linear.inverse?.transposed ?? linear
          if wide {
            box = placePointsWide(
              p.positions, vertices, world: world, origin: origin, into: positions + vertexStart)
          } else {
            for v in vertices {
              let q = world.transformPoint(point(v))
              box.widen(q)
              positions[vertexStart + v] = SIMD3<Float>(q - origin)
            }
          }
          /// Normal `v`: `vectors[v]` through the normal matrix, made unit.
          func writeNormals(_ vectors: UnsafePointer<SIMD3<Double>>) {
            if wide {
              writeUnitWide(vertices, of: vectors, by: normalMatrix, to: normals + vertexStart)
            } else {
              writeUnit(vertices, of: { normalMatrix * vectors[$0] }, to: normals + vertexStart)
            }
          }
          if let given = p.normals {
            given.withUnsafeBufferPointer { writeNormals($0.baseAddress!) }
          } else {
            // Smooth normals made here, the mesh's whole (one piece), their sums in a buffer
            // the cache holds: never an array of the mesh's size written out and read back.
            withUnsafeTemporaryAllocation(of: SIMD3<Double>.self, capacity: p.positions.count) { sums in
              sums.initialize(repeating: .zero)
              GLTFPrimitiveAttributes.addSmoothNormals(p.positions, corners, into: sums, wide: wide)
              writeNormals(UnsafePointer(sums.baseAddress!))
            }
          }
          Self.offset(corners, triangles, by: base, mirrored: mirrored, into: indices)
          return
        }
        // Flat: each triangle its own three vertices, in order, with its face's normal.
        for t in triangles {
          let a = world.transformPoint(point(Int(corners[3 * t])))
          let b = world.transformPoint(point(Int(corners[3 * t + 1])))
          let c = world.transformPoint(point(Int(corners[3 * t + 2])))
          box.widen(a)
          box.widen(b)
          box.widen(c)
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
    return box.bounds
  }

  /// Writes `triangles`' corners offset by `base` (indices below the vertex count, which fits:
  /// no overflow to check) to the same places in `indices`, each triangle's second and third
  /// swapped where `mirrored`. Unmirrored, one add an index over the whole range, four at a
  /// time (a choice and a triangle's index arithmetic a corner were a tenth of a 980k-triangle
  /// USDZ's placement), with stores that bypass the cache (`arscene_offset_indices`): the
  /// indices are read again only once the whole mesh is made, and a plain store first reads
  /// from memory each line it overwrites (4% of that USDZ's load on one core).
  @inline(__always)
  private static func offset(
    _ corners: UnsafeBufferPointer<UInt32>, _ triangles: Range<Int>, by base: UInt32, mirrored: Bool,
    into indices: UnsafeMutablePointer<UInt32>
  ) {
    guard let first = corners.baseAddress.map({ $0 + 3 &* triangles.lowerBound }) else { return }
    let out = indices + 3 &* triangles.lowerBound
    let count = 3 &* triangles.count
    guard mirrored else {
      arscene_offset_indices(first, out, count, base)
      return
    }
    var k = 0
    while k < count {
      (out[k], out[k &+ 1], out[k &+ 2]) = (first[k] &+ base, first[k &+ 2] &+ base, first[k &+ 1] &+ base)
      k &+= 3
    }
  }

  /// A buffer's first element; for an empty one, which nothing is written to, a pointer that
  /// is never followed (an empty array's buffer may have no address).
  private static func start<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UnsafeMutablePointer<T> {
    buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<T>.alignment)!
  }

  /// The box of the vertices a piece places (empty, low above high, for none), and whether one
  /// of them is not a number: a point that is finite where it is read can overflow through its
  /// transform (a hostile file's scale of 10³⁰⁸), which the model's load then refuses.
  struct Box {
    // Four lanes, the fourth unused: SIMD3's odd lane compiles to scalar compares and a branch
    // a vertex on the portable (SSE2) target; four are two vector registers, branch-free.
    var low = SIMD4<Double>(repeating: .infinity), high = SIMD4<Double>(repeating: -.infinity)
    var unordered = SIMDMask<SIMD4<Double>.MaskStorage>(repeating: false)

    /// The empty box.
    init() {}

    /// The box from `low` to `high`, saying nothing where a point was not a number (`unordered`).
    init(low: SIMD3<Double>, high: SIMD3<Double>, unordered: Bool) {
      (self.low, self.high) = (SIMD4(low, 0), SIMD4(high, 0))
      self.unordered = SIMDMask(repeating: unordered)
    }

    /// Widens the box to take in `q` as `pointwiseMin` and `pointwiseMax` would (an equal point
    /// replaces the maximum), noting a coordinate that is not a number: three vector compares,
    /// where the library's NaN-aware functions are a call a vertex.
    @inline(__always)
    mutating func widen(_ q: SIMD3<Double>) {
      let q = SIMD4(q, 0)
      low.replace(with: q, where: q .< low)
      high.replace(with: q, where: q .>= high)
      unordered .|= q .!= q
    }

    /// The box, its corners not numbers where a vertex was not one.
    var bounds: (SIMD3<Double>, SIMD3<Double>) {
      any(unordered) ? (SIMD3(repeating: .nan), SIMD3(repeating: .nan)) : (low.xyz, high.xyz)
    }
  }

  /// Writes `vector(v)` made unit (``unit(_:)``) to `out[v]` for each `v` of `range`: four at
  /// a time, their square roots and divisions in one vector instruction each (one a vertex,
  /// their latency bounded the assembly), where their squared lengths allow single precision.
  @inline(__always)
  private static func writeUnit(
    _ range: Range<Int>, of vector: (Int) -> SIMD3<Double>, to out: UnsafeMutablePointer<SIMD3<Float>>
  ) {
    var v = range.lowerBound
    while v &+ 4 <= range.upperBound {
      let (a, b, c, d) = (vector(v), vector(v &+ 1), vector(v &+ 2), vector(v &+ 3))
      let squared = SIMD4<Float>(
        SIMD4((a * a).sum(), (b * b).sum(), (c * c).sum(), (d * d).sum()))
      if all(squared .> 1e-30 .& squared .< 1e30) {
        let scale = 1 / squared.squareRoot()
        out[v] = SIMD3<Float>(a) * scale[0]
        out[v &+ 1] = SIMD3<Float>(b) * scale[1]
        out[v &+ 2] = SIMD3<Float>(c) * scale[2]
        out[v &+ 3] = SIMD3<Float>(d) * scale[3]
      } else {
        (out[v], out[v &+ 1], out[v &+ 2], out[v &+ 3]) = (unit(a), unit(b), unit(c), unit(d))
      }
      v &+= 4
    }
    while v < range.upperBound {
      out[v] = unit(vector(v))
      v &+= 1
    }
  }

  /// `v` made unit, in `Float`, (0, 1, 0) for a zero or non-finite `v`. Where its squared length
  /// lies well inside `Float`'s range the square root and the division are single precision
  /// (half the latency of double's, and a vertex's normal is a `Float` anyway: within 2·10⁻⁷).
  @inline(__always)
  private static func unit(_ v: SIMD3<Double>) -> SIMD3<Float> {
    let squared = (v * v).sum()
    if squared > 1e-30, squared < 1e30 {
      let scale = 1 / Float(squared).squareRoot()
      return SIMD3<Float>(Float(v.x), Float(v.y), Float(v.z)) * scale
    }
    let length = squared.squareRoot()
    guard length > 0, length.isFinite else {
      // Lengths whose square underflows or overflows: scaled by the largest component first.
      let largest = max(abs(v.x), abs(v.y), abs(v.z))
      guard largest > 0, largest.isFinite else { return SIMD3(0, 1, 0) }
      let w = v / largest
      let u = w / (w * w).sum().squareRoot()
      return SIMD3(Float(u.x), Float(u.y), Float(u.z))
    }
    let u = v / length
    return SIMD3(Float(u.x), Float(u.y), Float(u.z))
  }
}
