/// The triangles of a ``BoundingVolumeHierarchy`` in leaf order, one record each: the three
/// vertices (a, b, c) and the triangle's index in the mesh, together, so that testing a leaf
/// and reporting its hit touch one stretch of memory (an incoherent ray misses the cache on
/// every leaf it opens; a separate index array cost a second miss per hit).
///
/// Meshes come as `Float` (OBJ, ``Mesh``): when every coordinate is exactly a `Float`, records
/// hold `Float`s (40 bytes a triangle) and widen them exactly to `Double` for the test, so hits
/// are bit for bit those of `Double` records (80 bytes), which other input keeps.
@usableFromInline
enum LeafTriangles: Sendable {
  case float([Float])
  case double([Double])

  /// Scalars a record: nine coordinates and the index.
  @usableFromInline static let recordLength = 10

  init(order: [Int32], positions: [SIMD3<Double>], indices: [Int]) {
    let exact = positions.allSatisfy { p in
      Double(Float(p.x)) == p.x && Double(Float(p.y)) == p.y && Double(Float(p.z)) == p.z
    }
    self =
      exact
      ? .float(Self.records(order, positions, indices)) : .double(Self.records(order, positions, indices))
  }

  private static func records<S: LeafScalar>(_ order: [Int32], _ positions: [SIMD3<Double>], _ indices: [Int])
    -> [S]
  {
    [S](unsafeUninitializedCapacity: recordLength * order.count) { out, initialized in
      for (k, t) in order.enumerated() {
        let record = recordLength * k
        for corner in 0..<3 {
          let p = positions[indices[3 * Int(t) + corner]]
          out[record + 3 * corner] = S(p.x)
          out[record + 3 * corner + 1] = S(p.y)
          out[record + 3 * corner + 2] = S(p.z)
        }
        out[record + 9] = S(triangleIndex: t)
      }
      initialized = recordLength * order.count
    }
  }
}

/// A scalar that ``LeafTriangles`` records are made of.
@usableFromInline
protocol LeafScalar: BinaryFloatingPoint {
  /// The record's index field holding `index`.
  init(triangleIndex index: Int32)
  /// The triangle index this index field holds.
  var triangleIndex: Int { get }
  /// The coordinate as a `Double`, exactly.
  var widened: Double { get }
}

extension Float: LeafScalar {
  // The index's bits: every Int32 fits, and no arithmetic ever touches the field.
  @inlinable init(triangleIndex index: Int32) { self.init(bitPattern: UInt32(bitPattern: index)) }
  @inlinable var triangleIndex: Int { Int(Int32(bitPattern: bitPattern)) }
  @inlinable var widened: Double { Double(self) }
}

extension Double: LeafScalar {
  @inlinable init(triangleIndex index: Int32) { self.init(index) }
  @inlinable var triangleIndex: Int { Int(self) }
  @inlinable var widened: Double { self }
}
