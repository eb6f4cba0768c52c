#include "CVectorKernels.h"
#include "PortableKernels.h"

#include <stdlib.h>
#include <string.h>

int arscene_portable_kernels_requested(void) {
  const char *portable = getenv("ARSCENE_PORTABLE_KERNELS");
  return portable && *portable && strcmp(portable, "0") != 0;
}

#if defined(__x86_64__)
#include <immintrin.h>

int arscene_cpu_has_avx2(void) {
  // ARSCENE_PORTABLE_KERNELS=1 runs the portable loops on any CPU: a check that both give the
  // same bits (the AVX2 loops are written to).
  if (arscene_portable_kernels_requested()) return 0;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") ? 1 : 0;
}

// AVX2 without FMA: a product and a sum stay two roundings, as in the portable loops.
__attribute__((target("avx2"))) void arscene_symmetric_sum_avx2(const float *const *sources, const float *w,
                                                                long r, long count, float *out) {
  long x = 0;
  // Thirty-two at a time: four independent sums, each weight broadcast once for all four.
  for (; x + 32 <= count; x += 32) {
    __m256 w0 = _mm256_set1_ps(w[0]);
    __m256 a = _mm256_mul_ps(_mm256_loadu_ps(sources[0] + x), w0);
    __m256 b = _mm256_mul_ps(_mm256_loadu_ps(sources[0] + x + 8), w0);
    __m256 c = _mm256_mul_ps(_mm256_loadu_ps(sources[0] + x + 16), w0);
    __m256 d = _mm256_mul_ps(_mm256_loadu_ps(sources[0] + x + 24), w0);
    for (long k = 1; k <= r; k++) {
      const float *first = sources[2 * k - 1] + x, *second = sources[2 * k] + x;
      __m256 wk = _mm256_set1_ps(w[k]);
      a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(first), _mm256_loadu_ps(second)), wk));
      b = _mm256_add_ps(b,
                        _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(first + 8), _mm256_loadu_ps(second + 8)), wk));
      c = _mm256_add_ps(c,
                        _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(first + 16), _mm256_loadu_ps(second + 16)), wk));
      d = _mm256_add_ps(d,
                        _mm256_mul_ps(_mm256_add_ps(_mm256_loadu_ps(first + 24), _mm256_loadu_ps(second + 24)), wk));
    }
    _mm256_storeu_ps(out + x, a);
    _mm256_storeu_ps(out + x + 8, b);
    _mm256_storeu_ps(out + x + 16, c);
    _mm256_storeu_ps(out + x + 24, d);
  }
  for (; x < count; x += 8) {
    __m256 a = _mm256_mul_ps(_mm256_loadu_ps(sources[0] + x), _mm256_set1_ps(w[0]));
    for (long k = 1; k <= r; k++) {
      __m256 pair = _mm256_add_ps(_mm256_loadu_ps(sources[2 * k - 1] + x), _mm256_loadu_ps(sources[2 * k] + x));
      a = _mm256_add_ps(a, _mm256_mul_ps(pair, _mm256_set1_ps(w[k])));
    }
    _mm256_storeu_ps(out + x, a);
  }
}

// The taps in the order of the portable loop, each step one rounding as there.
__attribute__((target("avx2"))) void arscene_bilateral3_avx2(const float *const *rows, const float *weights,
                                                             float rangeScale, long from, long to,
                                                             float *const *out) {
  const __m256 one = _mm256_set1_ps(1), zero = _mm256_setzero_ps(), scale = _mm256_set1_ps(rangeScale);
  const __m256 corner = _mm256_set1_ps(weights[0]), side = _mm256_set1_ps(weights[1]);
  const __m256 middle = _mm256_set1_ps(weights[2]);
  // rows: red, green, blue, keys of the row above (0–3), the centre row (4–7), the row below
  // (8–11), then the centre row's alpha (12).
  const float *const *above = rows, *const *centreRow = rows + 4, *const *below = rows + 8;
  for (long x = from; x < to; x += 8) {
    __m256 centre = _mm256_loadu_ps(centreRow[3] + x);
    __m256 red = _mm256_mul_ps(_mm256_loadu_ps(centreRow[0] + x), middle);
    __m256 green = _mm256_mul_ps(_mm256_loadu_ps(centreRow[1] + x), middle);
    __m256 blue = _mm256_mul_ps(_mm256_loadu_ps(centreRow[2] + x), middle);
    __m256 total = middle;
#define ARSCENE_TAP(row, at, spatial)                                                                 \
  do {                                                                                                \
    __m256 d = _mm256_sub_ps(_mm256_loadu_ps((row)[3] + (at)), centre);                               \
    __m256 near = _mm256_max_ps(_mm256_sub_ps(one, _mm256_mul_ps(_mm256_mul_ps(d, d), scale)), zero); \
    __m256 square = _mm256_mul_ps(near, near);                                                        \
    __m256 fourth = _mm256_mul_ps(square, square);                                                    \
    __m256 weight = _mm256_mul_ps(_mm256_mul_ps(fourth, fourth), (spatial));                          \
    total = _mm256_add_ps(total, weight);                                                             \
    red = _mm256_add_ps(red, _mm256_mul_ps(_mm256_loadu_ps((row)[0] + (at)), weight));                \
    green = _mm256_add_ps(green, _mm256_mul_ps(_mm256_loadu_ps((row)[1] + (at)), weight));            \
    blue = _mm256_add_ps(blue, _mm256_mul_ps(_mm256_loadu_ps((row)[2] + (at)), weight));              \
  } while (0)
    ARSCENE_TAP(centreRow, x - 1, side);
    ARSCENE_TAP(centreRow, x + 1, side);
    ARSCENE_TAP(above, x, side);
    ARSCENE_TAP(below, x, side);
    ARSCENE_TAP(above, x - 1, corner);
    ARSCENE_TAP(above, x + 1, corner);
    ARSCENE_TAP(below, x - 1, corner);
    ARSCENE_TAP(below, x + 1, corner);
#undef ARSCENE_TAP
    __m256 inverse = _mm256_div_ps(one, total);
    _mm256_storeu_ps(out[0] + x, _mm256_mul_ps(red, inverse));
    _mm256_storeu_ps(out[1] + x, _mm256_mul_ps(green, inverse));
    _mm256_storeu_ps(out[2] + x, _mm256_mul_ps(blue, inverse));
    _mm256_storeu_ps(out[3] + x, _mm256_loadu_ps(rows[12] + x));
  }
}

#else

int arscene_cpu_has_avx2(void) { return 0; }
void arscene_symmetric_sum_avx2(const float *const *sources, const float *w, long r, long count, float *out) {
  (void)sources, (void)w, (void)r, (void)count, (void)out;
}
void arscene_bilateral3_avx2(const float *const *rows, const float *weights, float rangeScale, long from, long to,
                             float *const *out) {
  (void)rows, (void)weights, (void)rangeScale, (void)from, (void)to, (void)out;
}

#endif
