#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

extension SRGB {
  /// Encodes linear values to 8-bit sRGB codes with the same result as ``SRGB/encode8(_:)``,
  /// from one table small enough to stay in the cache next to a renderer's working set.
  ///
  /// A value's bucket of width 1/4096 gives the code at the bucket's start; one comparison with
  /// the next code's threshold (the smallest value that encodes to it) finishes the job. The
  /// steepest part of the curve (the linear segment, 12.92 · 255 codes per unit) moves at most
  /// 0.81 codes across a bucket, so a bucket holds at most one threshold. Each bucket's entry
  /// holds both: the code, and where the threshold lies in the bucket, in 2⁻²⁴ of its width.
  /// That is exact: from 1/4096 on, values lie on multiples of 2⁻³⁵, 2⁻²³ of a bucket, and the
  /// one threshold in the first bucket is a multiple of 2⁻³⁶. So a value needs one table read,
  /// and four values' reads are independent of one another. (A table
  /// of 65536 codes indexed by `round(v · 65535)`, used before, was off by one near thresholds
  /// and, at 64 KiB, missed the cache on a third of its reads in a textured fill.)
  public struct Encoder: @unchecked Sendable {
    /// Buckets across [0, 1].
    public static let buckets = 4096
    /// For bucket `i` in `0...4096` (values from `i / 4096`): the code of its first value in the
    /// low 8 bits; above them, `T − 1` for the next code's threshold `(i + T / 2²⁴) / 4096`, or
    /// 2²⁴ − 1 when the threshold lies past the bucket.
    public let entries: UnsafePointer<UInt32>
    /// `thresholds[c]`: the smallest value whose code is `c` or more, for `c` in `1...255`;
    /// `thresholds[256]` is infinity.
    public let thresholds: UnsafePointer<Float>

    /// The tables, built once; they live as long as the program.
    public static let shared = Encoder()

    private init() {
      let thresholds = UnsafeMutablePointer<Float>.allocate(capacity: 257)
      thresholds[0] = 0
      thresholds[256] = .infinity
      for code in 1...255 {
        // Binary search over the bit patterns of [0, 1], which order like the values.
        var (lo, hi) = ((0 as Float).bitPattern, (1 as Float).bitPattern)
        while lo < hi {
          let mid = lo + (hi - lo) / 2
          if SRGB.encode8(Float(bitPattern: mid)) >= code { hi = mid } else { lo = mid + 1 }
        }
        thresholds[code] = Float(bitPattern: lo)
      }
      let entries = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.buckets + 1)
      let never: UInt32 = (1 << 24) - 1
      for i in 0...Self.buckets {
        let code = SRGB.encode8(Float(i) / Float(Self.buckets))
        // Where the next code starts in the bucket, in 2⁻²⁴ of its width (exact, see the type).
        let at = Double(thresholds[Int(code) + 1]) * Double(Self.buckets) - Double(i)
        let step = at * 0x1p24
        precondition(
          at >= 1 || step == step.rounded(), "an sRGB threshold is not a multiple of 2⁻²⁴ of its bucket")
        entries[i] = (at < 1 ? UInt32(step) - 1 : never) << 8 | UInt32(code)
      }
      (self.entries, self.thresholds) = (UnsafePointer(entries), UnsafePointer(thresholds))
    }

    /// The code of a value given as `scaled`, the value times 4096 (in [0, 4096], not NaN; exact,
    /// as the scale is a power of two), and its bucket `Int32(scaled)` (computed by the caller,
    /// often for several channels at once).
    @inlinable @inline(__always)
    public func code(scaled: Float, bucket: Int32) -> UInt8 {
      let entry = entries[Int(bucket)]
      // Where the value lies in its bucket, in 2⁻²⁴ of its width, rounded down (the difference
      // is exact: the bucket's start is a whole number).
      let step = UInt32((scaled - Float(bucket)) * 0x1p24)
      // One more past the threshold, as arithmetic, not a branch (it goes either way at random
      // in a textured image): there `(T − 1) − step` wraps below zero.
      return UInt8(truncatingIfNeeded: entry &+ (((entry >> 8) &- step) >> 31))
    }

    /// The codes of four values given as `scaled`, each times 4096 (in [0, 4096], not NaN), and
    /// their buckets `Int32(scaled)`: ``code(scaled:bucket:)`` four lanes at a time, its four
    /// table reads independent.
    @inlinable @inline(__always)
    public func codes(scaled: SIMD4<Float>, buckets: SIMD4<Int32>) -> SIMD4<Int32> {
      // Buckets are at most 4096: each lane's low 16 bits (its first, little-endian) are its
      // index, read with one `pextrw`.
      let b = unsafeBitCast(buckets, to: SIMD8<UInt16>.self)
      let entry = SIMD4<Int32>(
        Int32(bitPattern: entries[Int(b[0])]), Int32(bitPattern: entries[Int(b[2])]),
        Int32(bitPattern: entries[Int(b[4])]), Int32(bitPattern: entries[Int(b[6])]))
      let threshold = unsafeBitCast(unsafeBitCast(entry, to: SIMD4<UInt32>.self) &>> 8, to: SIMD4<Int32>.self)
      // As SSE2 instructions: Swift's generic conversions and compares go lane by lane.
      #if arch(x86_64)
        // Below 2²⁴: the products convert exactly.
        let step = _mm_cvttps_epi32(
          (scaled - _mm_cvtepi32_ps(unsafeBitCast(buckets, to: __m128i.self))) * 0x1p24)
        // Past the threshold where `step > T − 1`: a lane mask of −1, so minus it adds one.
        let past = unsafeBitCast(
          _mm_cmpgt_epi32(step, unsafeBitCast(threshold, to: __m128i.self)), to: SIMD4<Int32>.self)
        return (entry & 255) &- past
      #else
        var codes = entry & 255
        for lane in 0..<4 {
          let step = Int32((scaled[lane] - Float(buckets[lane])) * 0x1p24)
          if step > threshold[lane] { codes[lane] &+= 1 }
        }
        return codes
      #endif
    }

    /// The code of any `value` (clamped to [0, 1]; NaN encodes as 0).
    @inlinable
    public func code(_ value: Float) -> UInt8 {
      let v = value > 0 ? (value < 1 ? value : 1) : 0
      let scaled = v * Float(Self.buckets)
      return code(scaled: scaled, bucket: Int32(scaled))
    }
  }
}
