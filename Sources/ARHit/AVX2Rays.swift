import CVectorKernels

/// Whether this CPU runs the AVX2 batch ray kernel (`arscene_closest_hits_avx2`), checked once.
/// The portable build traverses the 4-wide tree in SSE2; the kernel walks the
/// ``EightWideTree`` eight boxes at a time. Both give the same hits, bit for bit: the triangle
/// tests are the same operations, and ties go to the lowest triangle index on both.
enum AVX2Rays {
  static let available = arscene_cpu_has_avx2() != 0
}
