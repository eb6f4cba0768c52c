// A mesh placed in a model's frame, in AVX2: the loops of ARMesh's `GLTFPlacementLayout` (its
// points through the placement's transform, their box, its smooth normals summed and made unit)
// and of `GLTFPrimitiveAttributes.addSmoothNormals`. See CVectorKernels.h for the contracts;
// each gives the bits of the Swift loop it stands for: the same products and sums in the same
// order, no fused multiply-adds. Swift's SIMD3<Double> is four doubles (the fourth padding) and
// SIMD3<Float> four floats, so a point is one 256-bit load and a vertex one 128-bit store.
#include "CVectorKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

#pragma clang fp contract(off)

#define AVX2 __attribute__((target("avx2")))
#define INLINE inline __attribute__((always_inline))

// Lanes (y, z, x, w) and (z, x, y, w) of a vector.
#define YZX _MM_SHUFFLE(3, 0, 2, 1)
#define ZXY _MM_SHUFFLE(3, 1, 0, 2)

// Point i of `points`, the padding lane zero (it may hold anything, and a denormal or NaN
// there would only slow the arithmetic): of SIMD3<Double>s (four doubles each), or where
// `floats`, of packed floats (twelve bytes each, at any alignment, four bytes readable past the
// last, so that its 128-bit load stays inside them), widened exactly. Each loop below is
// written once over both and compiled twice, `floats` a constant in each.
AVX2 static INLINE __m256d load_point(const void *points, long i, int floats) {
  if (floats) {
    __m128 p = _mm_loadu_ps((const float *)((const char *)points + 12 * i));
    return _mm256_cvtps_pd(_mm_blend_ps(p, _mm_setzero_ps(), 0x8));
  }
  return _mm256_blend_pd(_mm256_loadu_pd((const double *)points + 4 * i), _mm256_setzero_pd(), 0x8);
}

// ARMath's `cross`, (a.yzx · b.zxy) − (a.zxy · b.yzx), given a and b with their lanes turned
// (a.yzx, b.yzx): computed as ((a · b.yzx) − (a.yzx · b)).yzx, the same products subtracted
// in the same order lane by lane, so the same bits, in three lane permutations rather than
// four, and two when a turned vector is shared (a fan's two triangles share an edge): the
// permutations, on one port, bounded the loop.
AVX2 static INLINE __m256d cross_turned(__m256d a, __m256d a_yzx, __m256d b, __m256d b_yzx) {
  __m256d t = _mm256_sub_pd(_mm256_mul_pd(a, b_yzx), _mm256_mul_pd(a_yzx, b));
  return _mm256_permute4x64_pd(t, YZX);
}

AVX2 static INLINE __m256d turned(__m256d a) { return _mm256_permute4x64_pd(a, YZX); }

AVX2 static INLINE void add_to(double *sum, __m256d n) { _mm256_storeu_pd(sum, _mm256_add_pd(_mm256_loadu_pd(sum), n)); }

AVX2 static INLINE void place_points(const void *points, int floats, long from, long to, const double *world,
                                     const double *origin, float *positions, arscene_box *box) {
  __m256d c0 = _mm256_loadu_pd(world), c1 = _mm256_loadu_pd(world + 4);
  __m256d c2 = _mm256_loadu_pd(world + 8), c3 = _mm256_loadu_pd(world + 12);
  __m256d offset = _mm256_setr_pd(origin[0], origin[1], origin[2], 0);
  __m256d low = _mm256_set1_pd(INFINITY), high = _mm256_set1_pd(-INFINITY), unordered = _mm256_setzero_pd();
  for (long v = from; v < to; v++) {
    // Each coordinate in every lane: broadcast from memory, or from the floats' one load.
    __m256d x, y, z;
    if (floats) {
      __m256d p = load_point(points, v, 1);
      x = _mm256_permute4x64_pd(p, 0x00), y = _mm256_permute4x64_pd(p, 0x55), z = _mm256_permute4x64_pd(p, 0xAA);
    } else {
      const double *p = (const double *)points + 4 * v;
      x = _mm256_broadcast_sd(p), y = _mm256_broadcast_sd(p + 1), z = _mm256_broadcast_sd(p + 2);
    }
    // Matrix4.transformPoint: c0·x + c1·y + c2·z + c3, left to right.
    __m256d q = _mm256_add_pd(_mm256_mul_pd(c0, x), _mm256_mul_pd(c1, y));
    q = _mm256_add_pd(_mm256_add_pd(q, _mm256_mul_pd(c2, z)), c3);
    // The Swift box: low takes q where q < low, high where q ≥ high (a NaN neither), noted.
    low = _mm256_blendv_pd(low, q, _mm256_cmp_pd(q, low, _CMP_LT_OQ));
    high = _mm256_blendv_pd(high, q, _mm256_cmp_pd(q, high, _CMP_GE_OQ));
    unordered = _mm256_or_pd(unordered, _mm256_cmp_pd(q, q, _CMP_UNORD_Q));
    _mm_storeu_ps(positions + 4 * v, _mm256_cvtpd_ps(_mm256_sub_pd(q, offset)));
  }
  double lows[4], highs[4];
  _mm256_storeu_pd(lows, low);
  _mm256_storeu_pd(highs, high);
  for (int k = 0; k < 3; k++) {
    box->low[k] = lows[k];
    box->high[k] = highs[k];
  }
  // The fourth lane is the matrix's bottom row at work, not a coordinate.
  box->unordered = (_mm256_movemask_pd(unordered) & 7) != 0;
}

AVX2 void arscene_place_points_avx2(const double *points, long from, long to, const double *world,
                                    const double *origin, float *positions, arscene_box *box) {
  place_points(points, 0, from, to, world, origin, positions, box);
}

AVX2 void arscene_place_float_points_avx2(const void *points, long from, long to, const double *world,
                                          const double *origin, float *positions, arscene_box *box) {
  place_points(points, 1, from, to, world, origin, positions, box);
}

AVX2 static INLINE void add_smooth_normals(const void *points, int floats, const uint32_t *triangles, long count,
                                           double *sums) {
  long end = count - count % 3;
  long t = 0;
  while (t < end) {
    uint32_t a = triangles[t], b = triangles[t + 1], c = triangles[t + 2];
    __m256d pa = load_point(points, a, floats);
    __m256d u = _mm256_sub_pd(load_point(points, b, floats), pa);
    __m256d v = _mm256_sub_pd(load_point(points, c, floats), pa);
    __m256d u_yzx = turned(u), v_yzx = turned(v);
    __m256d n = cross_turned(u, u_yzx, v, v_yzx);
    // A fan's next triangle, (a, c, f) or (a, e, b): shared corners take both products at once.
    if (t + 5 < end && triangles[t + 3] == a && (triangles[t + 4] == c || triangles[t + 5] == b)) {
      uint32_t e = triangles[t + 4], f = triangles[t + 5];
      // Its edges from a: (c − a, f − a), or (e − a, b − a); one is this triangle's.
      __m256d m;
      if (e == c) {
        __m256d w = _mm256_sub_pd(load_point(points, f, floats), pa);
        m = cross_turned(v, v_yzx, w, turned(w));
      } else {
        __m256d w = _mm256_sub_pd(load_point(points, e, floats), pa);
        m = cross_turned(w, turned(w), u, u_yzx);
      }
      uint32_t shared = e == c ? c : b, own = e == c ? b : c, other = e == c ? f : e;
      __m256d both = _mm256_add_pd(n, m);
      add_to(sums + 4 * (long)a, both);
      add_to(sums + 4 * (long)shared, both);
      add_to(sums + 4 * (long)own, n);
      add_to(sums + 4 * (long)other, m);
      t += 6;
      continue;
    }
    add_to(sums + 4 * (long)a, n);
    add_to(sums + 4 * (long)b, n);
    add_to(sums + 4 * (long)c, n);
    t += 3;
  }
}

AVX2 void arscene_add_smooth_normals_avx2(const double *points, const uint32_t *triangles, long count,
                                          double *sums) {
  add_smooth_normals(points, 0, triangles, count, sums);
}

AVX2 void arscene_add_float_smooth_normals_avx2(const void *points, const uint32_t *triangles, long count,
                                                double *sums) {
  add_smooth_normals(points, 1, triangles, count, sums);
}

// GLTFPlacementLayout.unit: v made unit in float, (0, 1, 0) for a zero or non-finite v.
static void unit(double x, double y, double z, float *out) {
  double squared = x * x + y * y + z * z;
  if (squared > 1e-30 && squared < 1e30) {
    float scale = 1.0f / sqrtf((float)squared);
    out[0] = (float)x * scale, out[1] = (float)y * scale, out[2] = (float)z * scale;
    return;
  }
  double length = sqrt(squared);
  if (!(length > 0 && isfinite(length))) {
    // Swift's max(a, b, c): max(max(a, b), c), each `second >= first ? second : first`.
    double ax = fabs(x), ay = fabs(y), az = fabs(z);
    double largest = ay >= ax ? ay : ax;
    largest = az >= largest ? az : largest;
    if (!(largest > 0 && isfinite(largest))) {
      out[0] = 0, out[1] = 1, out[2] = 0;
      return;
    }
    double wx = x / largest, wy = y / largest, wz = z / largest;
    double norm = sqrt(wx * wx + wy * wy + wz * wz);
    out[0] = (float)(wx / norm), out[1] = (float)(wy / norm), out[2] = (float)(wz / norm);
    return;
  }
  out[0] = (float)(x / length), out[1] = (float)(y / length), out[2] = (float)(z / length);
}

AVX2 void arscene_write_unit_normals_avx2(const double *vectors, long from, long to, const double *matrix,
                                          float *out) {
  // Element (column, row) of the 3 × 3 matrix, its columns four doubles apart.
  __m256d m[3][3];
  for (int column = 0; column < 3; column++)
    for (int row = 0; row < 3; row++) m[column][row] = _mm256_set1_pd(matrix[4 * column + row]);
  long v = from;
  for (; v + 4 <= to; v += 4) {
    // Four vectors, turned into their x, y and z across the lanes.
    const double *s = vectors + 4 * v;
    __m256d r0 = _mm256_loadu_pd(s), r1 = _mm256_loadu_pd(s + 4), r2 = _mm256_loadu_pd(s + 8),
            r3 = _mm256_loadu_pd(s + 12);
    __m256d xz01 = _mm256_unpacklo_pd(r0, r1), yw01 = _mm256_unpackhi_pd(r0, r1);
    __m256d xz23 = _mm256_unpacklo_pd(r2, r3), yw23 = _mm256_unpackhi_pd(r2, r3);
    __m256d x = _mm256_permute2f128_pd(xz01, xz23, 0x20), y = _mm256_permute2f128_pd(yw01, yw23, 0x20);
    __m256d z = _mm256_permute2f128_pd(xz01, xz23, 0x31);
    // Matrix3 · v: c0·x + c1·y + c2·z, left to right, a row at a time.
    __m256d product[3];
    for (int row = 0; row < 3; row++) {
      __m256d sum = _mm256_add_pd(_mm256_mul_pd(m[0][row], x), _mm256_mul_pd(m[1][row], y));
      product[row] = _mm256_add_pd(sum, _mm256_mul_pd(m[2][row], z));
    }
    // The squared length summed x, y, z in order (SIMD3's sum), then in float.
    __m256d squared = _mm256_add_pd(_mm256_mul_pd(product[0], product[0]), _mm256_mul_pd(product[1], product[1]));
    squared = _mm256_add_pd(squared, _mm256_mul_pd(product[2], product[2]));
    __m128 length2 = _mm256_cvtpd_ps(squared);
    __m128 inside = _mm_and_ps(_mm_cmpgt_ps(length2, _mm_set1_ps(1e-30f)), _mm_cmplt_ps(length2, _mm_set1_ps(1e30f)));
    if (_mm_movemask_ps(inside) != 15) {
      double lanes[3][4];
      for (int row = 0; row < 3; row++) _mm256_storeu_pd(lanes[row], product[row]);
      for (int k = 0; k < 4; k++) unit(lanes[0][k], lanes[1][k], lanes[2][k], out + 4 * (v + k));
      continue;
    }
    __m128 scale = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(length2));
    __m128 fx = _mm_mul_ps(_mm256_cvtpd_ps(product[0]), scale);
    __m128 fy = _mm_mul_ps(_mm256_cvtpd_ps(product[1]), scale);
    __m128 fz = _mm_mul_ps(_mm256_cvtpd_ps(product[2]), scale);
    __m128 fw = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(fx, fy, fz, fw);
    _mm_storeu_ps(out + 4 * v, fx);
    _mm_storeu_ps(out + 4 * (v + 1), fy);
    _mm_storeu_ps(out + 4 * (v + 2), fz);
    _mm_storeu_ps(out + 4 * (v + 3), fw);
  }
  for (; v < to; v++) {
    const double *s = vectors + 4 * v;
    double x = matrix[0] * s[0] + matrix[4] * s[1] + matrix[8] * s[2];
    double y = matrix[1] * s[0] + matrix[5] * s[1] + matrix[9] * s[2];
    double z = matrix[2] * s[0] + matrix[6] * s[1] + matrix[10] * s[2];
    unit(x, y, z, out + 4 * v);
  }
}

#else

void arscene_place_points_avx2(const double *points, long from, long to, const double *world, const double *origin,
                               float *positions, arscene_box *box) {}
void arscene_add_smooth_normals_avx2(const double *points, const uint32_t *triangles, long count, double *sums) {}
void arscene_place_float_points_avx2(const void *points, long from, long to, const double *world,
                                     const double *origin, float *positions, arscene_box *box) {}
void arscene_add_float_smooth_normals_avx2(const void *points, const uint32_t *triangles, long count,
                                           double *sums) {}
void arscene_write_unit_normals_avx2(const double *vectors, long from, long to, const double *matrix, float *out) {}

#endif
