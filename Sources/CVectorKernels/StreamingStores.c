// Writes of large arrays that are read again only later (a model's assembled mesh, read by the
// renderer after the whole mesh is made): stores that bypass the cache on x86-64, so that each
// line written is not first read from memory, then a store fence, since such stores are weakly
// ordered. Elsewhere, plain stores.
#include "CVectorKernels.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

void arscene_offset_indices(const uint32_t *in, uint32_t *out, long count, uint32_t base) {
  long k = 0;
#if defined(__x86_64__)
  while (k < count && ((uintptr_t)(out + k) & 15) != 0) {
    out[k] = in[k] + base;
    k++;
  }
  const __m128i offset = _mm_set1_epi32((int)base);
  for (; k + 4 <= count; k += 4) {
    __m128i v = _mm_loadu_si128((const __m128i *)(in + k));
    _mm_stream_si128((__m128i *)(out + k), _mm_add_epi32(v, offset));
  }
  _mm_sfence();
#endif
  for (; k < count; k++) out[k] = in[k] + base;
}

