import Foundation

/// A stage's fans (``USDFaceFans``), made once a topology: exporters write a kit's repeated
/// parts as meshes that share one `faceVertexCounts` and one `faceVertexIndices` array (a crate
/// stores such an array once, and ``USDLayer`` decodes it once), and fanning it again for each
/// part was a fifth of a 100-part kit's load; the parts' triangles, one array, then stay in the
/// cache while their normals and vertices are made.
///
/// A topology is the arrays themselves (the same storage, not equal contents), the point count
/// the indices are checked against, the faces' orientation and whether corners are kept. The
/// cache keeps every array it was given alive, so no other array can take their storage's
/// address while it lives. Safe to use from several threads.
final class USDFanCache: @unchecked Sendable {
  private struct Key: Hashable {
    var counts: UInt, countsLength: Int, indices: UInt, indicesLength: Int
    var pointCount: Int, leftHanded: Bool, keepCorners: Bool
  }

  private let lock = NSLock()
  private var made: [Key: (counts: [Int64], indices: [Int64], fans: USDFaceFans)] = [:]

  /// The fans of `counts` over `indices` (see ``USDFaceFans/init(counts:indices:pointCount:leftHanded:keepCorners:prim:path:)``),
  /// made the first time these arrays are asked for with these points and flags; an error
  /// names `prim`, the mesh that asked, and is not kept.
  func fans(
    counts: [Int64], indices: [Int64], pointCount: Int, leftHanded: Bool, keepCorners: Bool, prim: String,
    path: String
  ) throws(USDError) -> USDFaceFans {
    let key = Key(
      counts: Self.address(counts), countsLength: counts.count, indices: Self.address(indices),
      indicesLength: indices.count, pointCount: pointCount, leftHanded: leftHanded, keepCorners: keepCorners)
    if let known = lock.withLock({ made[key] }) { return known.fans }
    // Made outside the lock: two threads asking at once both make it, and either is kept.
    let fans = try USDFaceFans(
      counts: counts, indices: indices, pointCount: pointCount, leftHanded: leftHanded,
      keepCorners: keepCorners, prim: prim, path: path)
    lock.withLock { made[key] = (counts, indices, fans) }
    return fans
  }

  private static func address(_ array: [Int64]) -> UInt {
    array.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }
}
