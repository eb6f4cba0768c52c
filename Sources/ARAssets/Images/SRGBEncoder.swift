extension SRGB {
  /// Encodes linear values to 8-bit sRGB codes with the same result as ``SRGB/encode8(_:)``,
  /// from one table small enough to stay in the cache next to a renderer's working set.
  ///
  /// A value's bucket of width 1/4096 gives the code at the bucket's start; one comparison with
  /// the next code's threshold (the smallest value that encodes to it) finishes the job. The
  /// steepest part of the curve (the linear segment, 12.92 · 255 codes per unit) moves at most
  /// 0.81 codes across a bucket, so a bucket holds at most one threshold. Each bucket's entry
  /// holds both: the code, and where the threshold lies from the bucket's middle, in steps of
  /// the float bit pattern (less than 2²³ either way: a bucket spans at most one binade). So a
  /// value needs one table read, and four values' reads are independent of one another. (A table
  /// of 65536 codes indexed by `round(v · 65535)`, used before, was off by one near thresholds
  /// and, at 64 KiB, missed the cache on a third of its reads in a textured fill.)
  public struct Encoder: @unchecked Sendable {
    /// Buckets across [0, 1].
    public static let buckets = 4096
    /// For bucket `i` in `0...4096` (values from `i / 4096`): the code of its first value in the
    /// low 8 bits; above them, signed, the bit pattern of the next code's threshold minus that
    /// of the bucket's middle `(i + 0.5) / 4096`, or 2²³ − 1 when the threshold lies past the
    /// bucket.
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
      let never: Int64 = (1 << 23) - 1
      for i in 0...Self.buckets {
        let code = SRGB.encode8(Float(i) / Float(Self.buckets))
        let next = thresholds[Int(code) + 1]
        let end = Float(i + 1) / Float(Self.buckets)
        let offset =
          next < end ? Int64(next.bitPattern) - Int64(Self.middle(Int32(i)).bitPattern) : never
        precondition(abs(offset) <= never, "an sRGB bucket spans more than a binade")
        entries[i] = UInt32(truncatingIfNeeded: offset << 8) | UInt32(code)
      }
      (self.entries, self.thresholds) = (UnsafePointer(entries), UnsafePointer(thresholds))
    }

    /// The middle value of bucket `i`, `(i + 0.5) / 4096` (exact).
    @inlinable @inline(__always)
    @usableFromInline static func middle(_ i: Int32) -> Float { (Float(i) + 0.5) * (1 / Float(buckets)) }

    /// The code of `value`, which must lie in [0, 1] (not NaN), given its bucket
    /// `Int(value · 4096)` (computed by the caller, often for several channels at once).
    @inlinable @inline(__always)
    public func code(_ value: Float, bucket: Int32) -> UInt8 {
      let entry = Int32(bitPattern: entries[Int(bucket)])
      let fromMiddle = Int32(bitPattern: value.bitPattern &- Self.middle(bucket).bitPattern)
      // One more where fromMiddle ≥ the threshold's, as arithmetic, not a branch (it goes either
      // way at random in a textured image): there `threshold − fromMiddle − 1` is negative.
      let above = UInt32(bitPattern: (entry >> 8) &- fromMiddle &- 1) >> 31
      return UInt8(truncatingIfNeeded: entry) &+ UInt8(truncatingIfNeeded: above)
    }

    /// The codes of four values, each in [0, 1] (not NaN), given their buckets `Int(v · 4096)`:
    /// ``code(_:bucket:)`` four lanes at a time, its four table reads independent.
    @inlinable @inline(__always)
    public func codes(_ values: SIMD4<Float>, buckets: SIMD4<Int32>) -> SIMD4<Int32> {
      // Buckets are non-negative: as UInt32 they widen to indices for free.
      let b = unsafeBitCast(buckets, to: SIMD4<UInt32>.self)
      let entry = SIMD4<Int32>(
        Int32(bitPattern: entries[Int(b.x)]), Int32(bitPattern: entries[Int(b.y)]),
        Int32(bitPattern: entries[Int(b.z)]), Int32(bitPattern: entries[Int(b.w)]))
      let middle = (SIMD4<Float>(buckets) + 0.5) * (1 / Float(Self.buckets))
      let fromMiddle =
        unsafeBitCast(values, to: SIMD4<Int32>.self) &- unsafeBitCast(middle, to: SIMD4<Int32>.self)
      let below = (entry &>> 8) &- fromMiddle &- 1
      let above = unsafeBitCast(unsafeBitCast(below, to: SIMD4<UInt32>.self) &>> 31, to: SIMD4<Int32>.self)
      return (entry & 255) &+ above
    }

    /// The code of any `value` (clamped to [0, 1]; NaN encodes as 0).
    @inlinable
    public func code(_ value: Float) -> UInt8 {
      let v = value > 0 ? (value < 1 ? value : 1) : 0
      return code(v, bucket: Int32(v * Float(Self.buckets)))
    }
  }
}
