extension SRGB {
  /// Encodes linear values to 8-bit sRGB codes with the same result as ``SRGB/encode8(_:)``,
  /// from two tables small enough to stay in the L1 cache next to a renderer's working set.
  ///
  /// A value's bucket of width 1/4096 gives the code at the bucket's start; one comparison with
  /// the next code's threshold (the smallest value that encodes to it) finishes the job. The
  /// steepest part of the curve (the linear segment, 12.92 · 255 codes per unit) moves at most
  /// 0.81 codes across a bucket, so a bucket holds at most one threshold. (A table of 65536
  /// codes indexed by `round(v · 65535)`, used before, was off by one near thresholds and, at
  /// 64 KiB, missed the cache on a third of its reads in a textured fill.)
  public struct Encoder: @unchecked Sendable {
    /// Buckets across [0, 1].
    public static let buckets = 4096
    /// The code of each bucket's first value `i / 4096`, for `i` in `0...4096`.
    public let bucketCodes: UnsafePointer<UInt8>
    /// `thresholds[c]`: the smallest value whose code is `c` or more, for `c` in `1...255`;
    /// `thresholds[256]` is infinity.
    public let thresholds: UnsafePointer<Float>

    /// The tables, built once; they live as long as the program.
    public static let shared = Encoder()

    private init() {
      let codes = UnsafeMutablePointer<UInt8>.allocate(capacity: Self.buckets + 1)
      for i in 0...Self.buckets { codes[i] = SRGB.encode8(Float(i) / Float(Self.buckets)) }
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
      (bucketCodes, self.thresholds) = (UnsafePointer(codes), UnsafePointer(thresholds))
    }

    /// The code of `value`, which must lie in [0, 1] (not NaN), given its bucket
    /// `Int(value · 4096)` (computed by the caller, often for several channels at once).
    @inlinable @inline(__always)
    public func code(_ value: Float, bucket: Int32) -> UInt8 {
      let code = bucketCodes[Int(bucket)]
      // `value >= threshold` as arithmetic, not a branch (it goes either way at random in a
      // textured image, and mispredicted three times a pixel): non-negative floats order like
      // their bit patterns, so the sign of `threshold − value − 1` in bits is the answer.
      let below = thresholds[Int(code) &+ 1].bitPattern &- value.bitPattern &- 1
      return code &+ UInt8(truncatingIfNeeded: below >> 31)
    }

    /// The code of any `value` (clamped to [0, 1]; NaN encodes as 0).
    @inlinable
    public func code(_ value: Float) -> UInt8 {
      let v = value > 0 ? (value < 1 ? value : 1) : 0
      return code(v, bucket: Int32(v * Float(Self.buckets)))
    }
  }
}
