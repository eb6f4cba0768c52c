/// Sorting of 30-bit keys (Morton codes) with their positions, in linear time.
enum RadixSort {
  /// `keys` sorted (only their low 30 bits count), and for each sorted key its index in `keys`.
  /// Stable: equal keys keep their order. An LSD radix sort, 10 bits a pass: a comparison sort
  /// was a fifth of the whole Morton build.
  static func sort30(_ keys: [UInt32]) -> (keys: [UInt32], indices: [Int32]) {
    var keys = keys
    var indices = (0..<Int32(keys.count)).map { $0 }
    var keysOut = keys, indicesOut = indices
    for shift in stride(from: UInt32(0), to: 30, by: 10) {
      var counts = [Int](repeating: 0, count: 1025)
      for key in keys { counts[Int((key >> shift) & 1023) + 1] += 1 }
      for b in 1...1024 { counts[b] += counts[b - 1] }
      for (key, index) in zip(keys, indices) {
        let bucket = Int((key >> shift) & 1023)
        keysOut[counts[bucket]] = key
        indicesOut[counts[bucket]] = index
        counts[bucket] += 1
      }
      swap(&keys, &keysOut)
      swap(&indices, &indicesOut)
    }
    return (keys, indices)
  }

  /// The low 10 bits of `v` spread to every third bit (for interleaving three coordinates).
  @inline(__always)
  static func spread3(_ v: UInt32) -> UInt32 {
    var x = v & 0x3FF
    x = (x | (x << 16)) & 0x0300_00FF
    x = (x | (x << 8)) & 0x0300_F00F
    x = (x | (x << 4)) & 0x030C_30C3
    x = (x | (x << 2)) & 0x0924_9249
    return x
  }
}
