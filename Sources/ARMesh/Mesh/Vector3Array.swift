import ARMath
import CVectorKernels

/// Three-component vectors (a mesh's points, normals, offsets, an extent), read as
/// `SIMD3<Double>` and held either as doubles or as the 32-bit floats a file stores them in.
///
/// A float widens to a double exactly, so both read alike, bit for bit. The floats are what a
/// USD crate holds: left in the file's bytes where they are (not copied), a mesh's points are
/// 12 bytes each rather than a `SIMD3<Double>`'s 32, and the placement's loops read them there
/// (no array of doubles written out and read back: a tenth of a large USDZ's load).
struct Vector3Array: RandomAccessCollection {
  enum Storage {
    case doubles([SIMD3<Double>])
    /// Three floats a vector (the host's byte order, packed, at any alignment), then four bytes
    /// more (a 128-bit load of the last vector's three floats stays inside them); and whether
    /// every one is finite, found as they were taken (the bytes never change).
    case floats(ArraySlice<UInt8>, finite: Bool)
  }

  let storage: Storage
  let count: Int

  /// The vectors `doubles`.
  init(_ doubles: [SIMD3<Double>]) {
    (storage, count) = (.doubles(doubles), doubles.count)
  }

  /// `count` vectors of three floats (the host's byte order, packed) in `bytes` from `offset`
  /// (counted from its start), which must hold them: kept there, not copied, where four more
  /// bytes follow them (else copied, with four bytes of padding), and checked finite now
  /// (``allFinite`` then reads nothing).
  init(floats bytes: ArraySlice<UInt8>, offset: Int, count: Int) {
    precondition(offset >= 0 && count >= 0 && 12 * count <= bytes.count - offset, "floats past the bytes")
    let start = bytes.startIndex + offset, end = start + 12 * count + 4
    let kept = end <= bytes.endIndex ? bytes[start..<end] : ArraySlice(bytes[start..<end - 4] + [0, 0, 0, 0])
    let finite = kept.withUnsafeBytes { arscene_float3_finite($0.baseAddress!, count) != 0 }
    (storage, self.count) = (.floats(kept, finite: finite), count)
  }

  var startIndex: Int { 0 }
  var endIndex: Int { count }

  subscript(i: Int) -> SIMD3<Double> {
    switch storage {
    case .doubles(let d): d[i]
    case .floats(let f, _):
      f.withUnsafeBytes { f in
        precondition(i >= 0 && i < count, "index \(i) of \(count) vectors")
        return Self.vector(i, of: f)
      }
    }
  }

  /// The vectors as an array of doubles: the array held, or the floats widened into a new one.
  var doubles: [SIMD3<Double>] {
    switch storage {
    case .doubles(let d): return d
    case .floats(let f, _):
      return [SIMD3<Double>](unsafeUninitializedCapacity: count) { out, made in
        f.withUnsafeBytes { f in
          if let first = out.baseAddress, count > 0 {
            arscene_widen_float3(
              f.baseAddress!, count, UnsafeMutableRawPointer(first).assumingMemoryBound(to: Double.self))
          }
        }
        made = count
      }
    }
  }

  /// Calls `body` to change the vectors, given as doubles (floats widened first).
  mutating func modifyDoubles<R, E: Error>(_ body: (inout [SIMD3<Double>]) throws(E) -> R) throws(E) -> R {
    var vectors = doubles
    // Let go of the storage, so that `vectors` is the array's only reference: changed in place.
    self = []
    defer { self = Vector3Array(vectors) }
    return try body(&vectors)
  }

  /// Calls `body` with the vectors as doubles: those held, or the floats widened for the call.
  func withUnsafeDoubles<R>(_ body: (UnsafeBufferPointer<SIMD3<Double>>) throws -> R) rethrows -> R {
    switch storage {
    case .doubles(let d): return try d.withUnsafeBufferPointer(body)
    case .floats: return try doubles.withUnsafeBufferPointer(body)
    }
  }

  /// Calls `body` with a function giving vector `i` (below ``count``, unchecked) as held: for
  /// loops over the vectors that read each once, without widening the floats into an array.
  @inline(__always)
  func withReader<R>(_ body: ((Int) -> SIMD3<Double>) throws -> R) rethrows -> R {
    switch storage {
    case .doubles(let d): return try d.withUnsafeBufferPointer { d in try body { d[$0] } }
    case .floats(let f, _): return try f.withUnsafeBytes { f in try body { Self.vector($0, of: f) } }
    }
  }

  /// Vector `i` of the floats `bytes`, widened.
  @inline(__always)
  private static func vector(_ i: Int, of bytes: UnsafeRawBufferPointer) -> SIMD3<Double> {
    let at = 12 &* i
    return SIMD3(
      Double(bytes.loadUnaligned(fromByteOffset: at, as: Float.self)),
      Double(bytes.loadUnaligned(fromByteOffset: at &+ 4, as: Float.self)),
      Double(bytes.loadUnaligned(fromByteOffset: at &+ 8, as: Float.self)))
  }

  /// Whether every coordinate is finite.
  var allFinite: Bool {
    switch storage {
    case .doubles(let d): return d.allFinite
    case .floats(_, let finite): return finite
    }
  }
}

extension Vector3Array: ExpressibleByArrayLiteral {
  init(arrayLiteral elements: SIMD3<Double>...) { self.init(elements) }
}
