import ARMath
import Dispatch

/// The triangles of a ``BoundingVolumeHierarchy``'s leaves, one packet a leaf: four triangles
/// side by side (structure of arrays), so one test covers the whole leaf in `SIMD4` arithmetic
/// (``RayShear/intersect(packet:tMin:tMax:)``), and the triangles' indices in the mesh in the
/// same stretch of memory (an incoherent ray misses the cache on every leaf it opens; a separate
/// index array cost a second miss per hit).
///
/// A packet is ``packetLength`` scalars: for each vertex (a, b, c) and axis (x, y, z) the four
/// triangles' coordinates, then their four mesh indices. A leaf of fewer than four triangles
/// repeats its last one in the spare lanes (same triangle, same hit).
///
/// Meshes come as `Float` (OBJ, ``Mesh``): when every coordinate is exactly a `Float`, packets
/// hold `Float`s (160 bytes) and widen them exactly to `Double` for the test, so hits are bit
/// for bit those of `Double` packets (320 bytes), which other input keeps.
@usableFromInline
enum LeafTriangles: Sendable {
  case float([Float])
  case double([Double])

  /// Scalars a packet: 36 coordinates and four indices.
  @usableFromInline static let packetLength = 40
  /// Offset of the first index in a packet, in scalars.
  @usableFromInline static let indexOffset = 36

  /// Calls `body` with the packets' storage and whether they are `Double`s.
  func withUnsafePackets<R>(_ body: (UnsafeRawPointer, Bool) -> R) -> R {
    switch self {
    case .float(let records): records.withUnsafeBytes { body($0.baseAddress!, false) }
    case .double(let records): records.withUnsafeBytes { body($0.baseAddress!, true) }
    }
  }

  /// Bytes a packet of `S` scalars.
  @inlinable @inline(__always)
  static func packetBytes<S: LeafScalar>(_: S.Type) -> Int { packetLength * MemoryLayout<S>.stride }

  /// Packs the leaves of `nodes` (lanes `~first` with `count` triangles of `order`) into one
  /// packet each, in node order, and points each leaf lane at its packet instead.
  init(packing nodes: inout [WideNode], order: [Int32], positions: [SIMD3<Double>], indices: [Int]) {
    var leaves: [(first: Int, count: Int)] = []
    leaves.reserveCapacity(order.count / 2)
    for n in nodes.indices {
      for lane in 0..<4 where nodes[n].child[lane] < 0 {
        precondition(nodes[n].count[lane] > 0, "a leaf without triangles")
        leaves.append((Int(~nodes[n].child[lane]), Int(nodes[n].count[lane])))
        nodes[n].child[lane] = ~Int32(leaves.count - 1)
      }
    }
    let exact = positions.allSatisfy { p in
      Double(Float(p.x)) == p.x && Double(Float(p.y)) == p.y && Double(Float(p.z)) == p.z
    }
    self =
      exact
      ? .float(Self.packets(leaves, order, positions, indices))
      : .double(Self.packets(leaves, order, positions, indices))
  }

  /// Packets of at least this many leaves are filled in parallel parts.
  private static let parallelLeaves = 4096

  private static func packets<S: LeafScalar>(
    _ leaves: [(first: Int, count: Int)], _ order: [Int32], _ positions: [SIMD3<Double>], _ indices: [Int]
  ) -> [S] {
    [S](unsafeUninitializedCapacity: packetLength * leaves.count) { out, initialized in
      leaves.withUnsafeBufferPointer { leaves in
        order.withUnsafeBufferPointer { order in
          positions.withUnsafeBufferPointer { positions in
            indices.withUnsafeBufferPointer { indices in
              let source = PacketSource(
                leaves: leaves, order: order, positions: positions, indices: indices,
                out: UnsafeSendableMutablePointer(out.baseAddress!))
              let parts = leaves.count / parallelLeaves
              if parts <= 1 {
                source.fill(0..<leaves.count)
              } else {
                DispatchQueue.concurrentPerform(iterations: parts) { part in
                  source.fill(
                    (part * source.leaves.count / parts)..<((part + 1) * source.leaves.count / parts))
                }
              }
            }
          }
        }
      }
      initialized = packetLength * leaves.count
    }
  }

  /// What packets are filled from, shared by the threads that fill them.
  private struct PacketSource<S: LeafScalar>: @unchecked Sendable {
    let leaves: UnsafeBufferPointer<(first: Int, count: Int)>
    let order: UnsafeBufferPointer<Int32>
    let positions: UnsafeBufferPointer<SIMD3<Double>>
    let indices: UnsafeBufferPointer<Int>
    let out: UnsafeSendableMutablePointer<S>

    /// Fills the packets of `leaves[range]`.
    func fill(_ range: Range<Int>) {
      for packet in range {
        let leaf = leaves[packet]
        let base = packetLength * packet
        for lane in 0..<4 {
          let t = Int(order[leaf.first + min(lane, leaf.count - 1)])
          for vertex in 0..<3 {
            let p = positions[indices[3 * t + vertex]]
            for axis in 0..<3 { out.pointer[base + 12 * vertex + 4 * axis + lane] = S(p[axis]) }
          }
          out.pointer[base + indexOffset + lane] = S(triangleIndex: Int32(t))
        }
      }
    }
  }
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
