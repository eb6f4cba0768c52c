import CVectorKernels

/// Whether this CPU runs the AVX2 versions of the film's hot loops (`CVectorKernels`), checked
/// once. The portable build runs SSE2, four lanes; the AVX2 loops run eight with the same sums
/// in the same order, so a look gives the same bits either way.
enum WideVectors {
  static let available = arscene_cpu_has_avx2() != 0
}
