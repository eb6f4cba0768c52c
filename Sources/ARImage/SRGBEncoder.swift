#if arch(x86_64)
  import _Builtin_intrinsics.intel
#endif

extension SRGB {
  /// Encodes linear values to 8-bit sRGB codes with the same result as ``SRGB/encode8(_:)``,
  /// from one table small enough to stay in the cache next to a renderer's working set.
  ///
  /// A value's bucket gives the code at the bucket's start; one comparison with the next code's
  /// threshold (the smallest value that encodes to it) finishes the job. Buckets are ranges of
  /// bit patterns: the top 16 bits of a value in [2⁻¹³, 1] (its exponent and 7 bits of its
  /// mantissa) pick the bucket, 128 a binade, and the low 16 bits say where in the bucket it
  /// lies, so the comparison is an exact integer one. A bucket spans 1/128 of its value, across
  /// which the curve moves at most 0.88 codes (its relative slope, 255 · 1.055 / 2.4 · x^(1/2.4),
  /// is largest at 1), so a bucket holds at most one threshold; all values below 2⁻¹³ encode
  /// to 0 and share the first bucket. Each bucket's entry holds both the code and where the
  /// threshold lies. So a value needs one table read of 6.5 KiB, and four values' reads are
  /// independent of one another. The table is small on purpose: a 16 KiB one (4096 buckets of
  /// width 1/4096) was pushed out of the first-level cache by a textured frame's other reads, and
  /// a 64 KiB table of codes indexed by `round(v · 65535)` missed the cache on a third of its
  /// reads and was off by one near thresholds.
  public struct Encoder: @unchecked Sendable {
    /// The top 16 bits of 2⁻¹³'s bit pattern (exponent 114), the first bucket's. (A literal: a
    /// stored static is initialised lazily, and its accessor was called on every sample.)
    @inlinable static var firstBucket: UInt32 { 0x3900 }
    /// Buckets from 2⁻¹³ to 1 (1, top bits 0x3F80, has a bucket of its own).
    public static var buckets: Int { Int(0x3F80 - firstBucket) + 1 }
    /// For each bucket: the code of its first value in the low 8 bits; in the high 16,
    /// `T − 1` for the next code's threshold `T` bit patterns past the bucket's first, or
    /// 65535 when the threshold lies past the bucket.
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
      precondition(Float(0x1p-13).bitPattern >> 16 == Self.firstBucket && Float(1).bitPattern >> 16 == 0x3F80)
      let entries = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.buckets)
      for i in 0..<Self.buckets {
        let first = (Self.firstBucket + UInt32(i)) << 16
        let code = SRGB.encode8(Float(bitPattern: first))
        let next = thresholds[Int(code) + 1].bitPattern
        // Past its last value, 1 is the only one that counts in the last bucket.
        let last = i == Self.buckets - 1 ? first : first | 0xFFFF
        precondition(
          Int(SRGB.encode8(Float(bitPattern: last))) <= Int(code) + 1 && (i > 0 || code == SRGB.encode8(0)),
          "an sRGB bucket holds more than one threshold")
        let threshold = next <= last ? next - first - 1 : 0xFFFF
        entries[i] = threshold << 16 | UInt32(code)
      }
      (self.entries, self.thresholds) = (UnsafePointer(entries), UnsafePointer(thresholds))
    }

    /// The code of `value`, which must lie in [+0, 1] (not NaN, not −0: a clamp such as
    /// `value > 0 ? value : 0` gives +0 for both).
    @inlinable @inline(__always)
    public func code(unit value: Float) -> UInt8 {
      let bits = value.bitPattern
      let top = bits >> 16
      let entry = entries[Int(top > Self.firstBucket ? top - Self.firstBucket : 0)]
      // One more past the threshold, as arithmetic, not a branch (it goes either way at random
      // in a textured image): there `(T − 1) − low` wraps below zero.
      return UInt8(truncatingIfNeeded: entry &+ (((entry >> 16) &- (bits & 0xFFFF)) >> 31))
    }

    /// The codes of four values, each in [+0, 1] (not NaN, not −0): ``code(unit:)`` four lanes
    /// at a time, its four table reads independent.
    @inlinable @inline(__always)
    public func codes(unit values: SIMD4<Float>) -> SIMD4<Int32> {
      #if arch(x86_64)
        // As SSE2 instructions: Swift's generic conversions and compares go lane by lane.
        let bits = unsafeBitCast(values, to: __m128i.self)
        // Buckets: the top halves less the first bucket's, saturated at 0 (values below 2⁻¹³),
        // in each lane's low 16 bits (its first, little-endian), read with one `pextrw`.
        let index = unsafeBitCast(
          _mm_subs_epu16(_mm_srli_epi32(bits, 16), _mm_set1_epi32(Int32(Self.firstBucket))),
          to: SIMD8<UInt16>.self)
        let entry = SIMD4<Int32>(
          Int32(bitPattern: entries[Int(index[0])]), Int32(bitPattern: entries[Int(index[2])]),
          Int32(bitPattern: entries[Int(index[4])]), Int32(bitPattern: entries[Int(index[6])]))
        let low = _mm_and_si128(bits, _mm_set1_epi32(0xFFFF))
        // Past the threshold where `low > T − 1`: a lane mask of −1, so minus it adds one.
        let past = _mm_cmpgt_epi32(low, _mm_srli_epi32(unsafeBitCast(entry, to: __m128i.self), 16))
        return (entry & 255) &- unsafeBitCast(past, to: SIMD4<Int32>.self)
      #else
        SIMD4(
          Int32(code(unit: values.x)), Int32(code(unit: values.y)), Int32(code(unit: values.z)),
          Int32(code(unit: values.w)))
      #endif
    }

    /// The code of any `value` (clamped to [0, 1]; NaN encodes as 0).
    @inlinable
    public func code(_ value: Float) -> UInt8 {
      code(unit: value > 0 ? (value < 1 ? value : 1) : 0)
    }
  }
}
