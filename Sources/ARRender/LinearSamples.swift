import ARImage

/// Linear-light float samples (see ``SampleStore``).
struct LinearSamples: SampleStore, @unchecked Sendable {
  let color: UnsafeMutablePointer<SIMD4<Float>>

  @inline(__always) func encode(_ c: SIMD4<Float>) -> SIMD4<Float> { c }
  @inline(__always) func write(_ value: SIMD4<Float>, at index: Int) { color[index] = value }
  @inline(__always)
  func fill(_ value: SIMD4<Float>, at index: Int, count: Int) {
    (color + index).update(repeating: value, count: count)
  }
  @inline(__always) func color(at index: Int) -> SIMD4<Float> { color[index] }
}
