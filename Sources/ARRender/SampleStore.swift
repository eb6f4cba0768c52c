import ARImage

/// Where the rasterizer keeps the colour of each sample, and in what form.
///
/// Two forms, chosen per frame: linear-light floats (16 bytes a sample), when samples are
/// averaged, blended, or lit and drawn over one another (encoded once a pixel when their tile is
/// done); or the output's own 8-bit encoding (4 bytes) when each sample is a pixel written over,
/// so the frame needs no resolve pass and moves a quarter of the memory: flat colours (a
/// triangle encodes its colour once, not per pixel), and lit opaque samples shaded once each
/// after hidden surfaces are removed.
/// Stores are plain pointers shared by the tile workers, each writing its own tiles' samples.
protocol SampleStore: Sendable {
  /// A sample's stored form.
  associatedtype Stored
  /// The stored form of linear (or raw comparison-mode) colour `c`.
  func encode(_ c: SIMD4<Float>) -> Stored
  /// Writes `value` at sample `index`.
  func write(_ value: Stored, at index: Int)
  /// Writes `value` at the `count` samples from `index` on.
  func fill(_ value: Stored, at index: Int, count: Int)
  /// The colour at sample `index`, for blending over it.
  func color(at index: Int) -> SIMD4<Float>
  /// Writes the `count` opaque colours `colors` at the samples `indices` (over what is there).
  /// Their alpha is 1 (``FragmentShader/isOpaque(_:)``), which the store may take as given.
  /// May read both up to the next multiple of four (a ``FragmentBatch``'s arrays): whatever is
  /// there, NaN included, is clamped and never written.
  func writeOpaque(_ colors: UnsafePointer<SIMD4<Float>>, at indices: UnsafePointer<Int32>, count: Int)
}

extension SampleStore {
  @inline(__always)
  func writeOpaque(_ colors: UnsafePointer<SIMD4<Float>>, at indices: UnsafePointer<Int32>, count: Int) {
    writeEach(colors, at: indices, count: count)
  }

  /// ``writeOpaque(_:at:count:)`` one sample at a time, through ``encode(_:)``.
  @inline(__always)
  func writeEach(_ colors: UnsafePointer<SIMD4<Float>>, at indices: UnsafePointer<Int32>, count: Int) {
    for k in 0..<count { write(encode(colors[k]), at: Int(indices[k])) }
  }
}
