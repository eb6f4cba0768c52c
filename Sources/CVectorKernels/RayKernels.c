// Closest hits of rays with an 8-wide BVH, in AVX2: the batch ray kernel of ARHit. See
// `arscene_closest_hits_avx2` in CVectorKernels.h for the contract.
#include "CVectorKernels.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include <float.h>
#include <immintrin.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

// The triangle test must give the bits of ARHit's portable packet test: products and sums stay
// separate roundings (AVX2 alone has no FMA; this says so to the compiler as well).
#pragma clang fp contract(off)

#define AVX2 __attribute__((target("avx2")))
// Inlined so that the packet type, a constant at each call of `walk_rays`, folds away.
#define INLINE inline __attribute__((always_inline))

// 1 + 2γ₄ in Float, rounded up (WideBoxRay.widen).
static const uint32_t widen_bits = 0x3F800005u;

// A node: 8 floats lower x, upper x, lower y, upper y, lower z, upper z, then 8 child
// references (int32), then padding: 64 floats.
enum { node_floats = 64, child_floats = 48 };
// A leaf packet: 36 coordinates (vertex, axis, lane), then 4 triangle indices.
enum { packet_length = 40, index_offset = 36 };

// The float neighbours of four floats (given as their bits) towards −∞ (`down`) or +∞, lane by
// lane: the bits stepped by one towards the infinity (from ±∞ the largest finite float; zero
// steps from the zero of the matching sign).
AVX2 static inline __m128i step_bits(__m128i bits, int down) {
  __m128i zero = _mm_cmpeq_epi32(_mm_slli_epi32(bits, 1), _mm_setzero_si128());
  __m128i start =
      down ? _mm_blendv_epi8(bits, _mm_set1_epi32((int32_t)0x80000000u), zero) : _mm_andnot_si128(zero, bits);
  // Away from zero (+1) when the sign bit says the step goes that way, else towards it (−1).
  __m128i negative = _mm_srai_epi32(start, 31);
  __m128i away = down ? negative : _mm_xor_si128(negative, _mm_set1_epi32(-1));
  __m128i step = _mm_or_si128(_mm_and_si128(away, _mm_set1_epi32(1)), _mm_andnot_si128(away, _mm_set1_epi32(-1)));
  return _mm_add_epi32(start, step);
}

// The largest float ≤ x and the smallest float ≥ x (x not NaN). Whether a step is needed is a
// coin toss for arbitrary input, so it is taken by a select in vector registers, where the
// compiler keeps it a select (as scalar code it turned it back into a branch).
AVX2 static INLINE float float_toward(double x, int down) {
  __m128d wide = _mm_set_sd(x);
  __m128 nearest = _mm_cvtsd_ss(_mm_setzero_ps(), wide);
  __m128d back = _mm_cvtss_sd(_mm_setzero_pd(), nearest);
  __m128 needed = _mm_castpd_ps(down ? _mm_cmpgt_sd(back, wide) : _mm_cmplt_sd(back, wide));
  __m128 stepped = _mm_castsi128_ps(step_bits(_mm_castps_si128(nearest), down));
  return _mm_cvtss_f32(_mm_blendv_ps(nearest, stepped, needed));
}

AVX2 static INLINE float float_below(double x) { return float_toward(x, 1); }
AVX2 static INLINE float float_above(double x) { return float_toward(x, 0); }

// The ray as the triangle test sees it (ARHit's RayShear) and as the box test does (WideBoxRay).
// The box test's values are floats, broadcast to all lanes where they are used (a broadcast
// from memory costs a load); the fourth lane of each is unused.
typedef struct {
  long axes[3];
  double axis_origin[3];
  double shear_x, shear_y, scale_z;
  float near_origin[4], far_origin[4], inverse[4];
  int32_t near_offset[4], far_offset[4];
  double parameter_scale;
} prepared_ray;

// A component by index: a load at an offset (the rays' axes are a coin toss, so a select of the
// three by comparisons was a mispredicted branch or two each).
static inline double component(const double *v, long axis) { return v[axis]; }

// The low 32 bits of each 64-bit lane of a, as four 32-bit lanes (for masks: all ones or zeros).
AVX2 static inline __m128i narrow_masks(__m256d a) {
  return _mm256_castsi256_si128(
      _mm256_permutevar8x32_epi32(_mm256_castpd_si256(a), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
}

AVX2 static inline void prepare(const double *o, const double *d, prepared_ray *r) {
  // RayShear: the dominant axis becomes z; x and y swapped to keep the winding.
  double ax = fabs(d[0]), ay = fabs(d[1]), az = fabs(d[2]);
  long kz = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
  long next = kz == 2 ? 0 : kz + 1;
  long after = next == 2 ? 0 : next + 1;
  double dz = component(d, kz);
  long negative = dz < 0;
  long kx = negative ? after : next, ky = negative ? next : after;
  // WideBoxRay: the direction scaled by a power of two (exact) so that its largest component
  // lies in [1, 2). From the exponent bits; extreme exponents take the library.
  double largest = fmax(ax, fmax(ay, az)), scale;
  uint64_t bits;
  memcpy(&bits, &largest, 8);
  long exponent = (long)((bits >> 52) & 0x7FF) - 1023;
  if (exponent >= -1022 && exponent <= 1022) {
    uint64_t scale_bits = (uint64_t)(1023 - exponent) << 52;
    memcpy(&scale, &scale_bits, 8);
  } else {
    int e;
    frexp(largest, &e);
    scale = ldexp(1, 1 - e);
  }
  r->parameter_scale = 1 / scale;
  // The divisions, each lane rounded as the scalar division would be: the box test's
  // reciprocals of the scaled direction, and the shear.
  __m256d direction = _mm256_setr_pd(d[0], d[1], d[2], 1);
  __m256d reciprocals = _mm256_div_pd(_mm256_set1_pd(1), _mm256_mul_pd(direction, _mm256_set1_pd(scale)));
  __m256d shear = _mm256_div_pd(_mm256_setr_pd(-component(d, kx), -component(d, ky), 1, 1), _mm256_set1_pd(dz));
  double q[4];
  _mm256_storeu_pd(q, shear);
  r->shear_x = q[0];
  r->shear_y = q[1];
  r->scale_z = q[2];
  r->axes[0] = kx;
  r->axes[1] = ky;
  r->axes[2] = kz;
  r->axis_origin[0] = component(o, kx);
  r->axis_origin[1] = component(o, ky);
  r->axis_origin[2] = component(o, kz);
  // Parallel to a slab (or within 2⁻¹²⁸ of it): a huge finite value of the direction's sign, so
  // that 0·∞ never makes NaN (1/±0 is ±∞, clamped).
  __m256d clamped = _mm256_min_pd(_mm256_max_pd(reciprocals, _mm256_set1_pd(-FLT_MAX)), _mm256_set1_pd(FLT_MAX));
  _mm_storeu_ps(r->inverse, _mm256_cvtpd_ps(clamped));
  // The origin bracketed by the floats below and above it; travelling up an axis the near plane
  // is measured from above the origin (its distance only shrinks), the far plane from below.
  __m256d origin = _mm256_setr_pd(o[0], o[1], o[2], 0);
  __m128 nearest = _mm256_cvtpd_ps(origin);
  __m256d back = _mm256_cvtps_pd(nearest);
  __m128i nearest_bits = _mm_castps_si128(nearest);
  __m128i below = _mm_blendv_epi8(nearest_bits, step_bits(nearest_bits, 1),
                                  narrow_masks(_mm256_cmp_pd(back, origin, _CMP_GT_OQ)));
  __m128i above = _mm_blendv_epi8(nearest_bits, step_bits(nearest_bits, 0),
                                  narrow_masks(_mm256_cmp_pd(back, origin, _CMP_LT_OQ)));
  // Travelling down an axis: the direction's sign bit (so −0 counts as down), from the high
  // halves of its lanes.
  __m256i high_halves =
      _mm256_permutevar8x32_epi32(_mm256_castpd_si256(direction), _mm256_setr_epi32(1, 3, 5, 7, 0, 2, 4, 6));
  __m128i down = _mm_srai_epi32(_mm256_castsi256_si128(high_halves), 31);
  _mm_storeu_si128((__m128i *)r->near_origin, _mm_blendv_epi8(above, below, down));
  _mm_storeu_si128((__m128i *)r->far_origin, _mm_blendv_epi8(below, above, down));
  __m128i axis_base = _mm_setr_epi32(0, 16, 32, 48);
  _mm_storeu_si128((__m128i *)r->near_offset, _mm_add_epi32(axis_base, _mm_and_si128(down, _mm_set1_epi32(8))));
  _mm_storeu_si128((__m128i *)r->far_offset, _mm_add_epi32(axis_base, _mm_andnot_si128(down, _mm_set1_epi32(8))));
}

// Four coordinates of a packet as doubles.
AVX2 static INLINE __m256d load4(const void *packets, int doubles, long at) {
  if (doubles) return _mm256_loadu_pd((const double *)packets + at);
  return _mm256_cvtps_pd(_mm_loadu_ps((const float *)packets + at));
}

AVX2 static INLINE long triangle_index(const void *packets, int doubles, long at) {
  if (doubles) return (long)((const double *)packets)[at];
  int32_t bits;
  memcpy(&bits, (const float *)packets + at, 4);
  return bits;
}

// RayShear.intersect(packet:tMin:tMax:before:), operation for operation: replaces the best hit
// by the packet's first in (parameter, triangle) order, if that comes before it.
AVX2 static INLINE void intersect_packet(const prepared_ray *r, const void *packets, int doubles, long packet,
                                        double t_min, double t_max, arscene_ray_hit *best) {
  long base = packet_length * packet;
  __m256d sx = _mm256_set1_pd(r->shear_x), sy = _mm256_set1_pd(r->shear_y);
  __m256d ox = _mm256_set1_pd(r->axis_origin[0]), oy = _mm256_set1_pd(r->axis_origin[1]),
          oz = _mm256_set1_pd(r->axis_origin[2]);
  __m256d x[3], y[3], pz[3];
  for (int vertex = 0; vertex < 3; vertex++) {
    long at = base + 12 * vertex;
    __m256d px = _mm256_sub_pd(load4(packets, doubles, at + 4 * r->axes[0]), ox);
    __m256d py = _mm256_sub_pd(load4(packets, doubles, at + 4 * r->axes[1]), oy);
    pz[vertex] = _mm256_sub_pd(load4(packets, doubles, at + 4 * r->axes[2]), oz);
    x[vertex] = _mm256_add_pd(px, _mm256_mul_pd(pz[vertex], sx));
    y[vertex] = _mm256_add_pd(py, _mm256_mul_pd(pz[vertex], sy));
  }
  // a, b, c = vertices 0, 1, 2.
  __m256d u = _mm256_sub_pd(_mm256_mul_pd(x[2], y[1]), _mm256_mul_pd(y[2], x[1]));
  __m256d v = _mm256_sub_pd(_mm256_mul_pd(x[0], y[2]), _mm256_mul_pd(y[0], x[2]));
  __m256d w = _mm256_sub_pd(_mm256_mul_pd(x[1], y[0]), _mm256_mul_pd(y[1], x[0]));
  __m256d lowest = _mm256_min_pd(_mm256_min_pd(u, v), w), highest = _mm256_max_pd(_mm256_max_pd(u, v), w);
  __m256d zero = _mm256_setzero_pd();
  int mixed = _mm256_movemask_pd(_mm256_cmp_pd(lowest, zero, _CMP_LT_OQ)) &
              _mm256_movemask_pd(_mm256_cmp_pd(zero, highest, _CMP_LT_OQ));
  int candidates = ~mixed & 15;
  if (!candidates) return;
  double us[4], vs[4], ws[4], az[4], bz[4], cz[4];
  _mm256_storeu_pd(us, u);
  _mm256_storeu_pd(vs, v);
  _mm256_storeu_pd(ws, w);
  __m256d sz = _mm256_set1_pd(r->scale_z);
  _mm256_storeu_pd(az, _mm256_mul_pd(pz[0], sz));
  _mm256_storeu_pd(bz, _mm256_mul_pd(pz[1], sz));
  _mm256_storeu_pd(cz, _mm256_mul_pd(pz[2], sz));
  while (candidates) {
    int lane = __builtin_ctz(candidates);
    candidates &= candidates - 1;
    double ul = us[lane], vl = vs[lane], wl = ws[lane];
    double det = ul + vl + wl;
    if (det == 0) continue;
    double t_scaled = ul * az[lane] + vl * bz[lane] + wl * cz[lane];
    if (det > 0) {
      if (t_scaled < t_min * det || t_scaled > t_max * det) continue;
    } else {
      if (t_scaled > t_min * det || t_scaled < t_max * det) continue;
    }
    double inverse = 1 / det;
    double t = t_scaled * inverse;
    long triangle = triangle_index(packets, doubles, base + index_offset + lane);
    if (!(t < best->t || (t == best->t && triangle < best->triangle))) continue;
    best->t = t;
    best->triangle = triangle;
    best->u = vl * inverse;
    best->v = wl * inverse;
  }
}

// One ray's walk, a node visit a step, so that a thread can keep several in flight: each asks
// for the leaf packets and child nodes its visit found, and finds them arrived when its turn
// comes again (as ARHit's RayTraversal does).
typedef struct {
  prepared_ray r;
  arscene_ray_hit best;
  float near, far;
  // The stack of nodes still to visit and the ray's entry into each.
  int32_t *stack_node;
  float *stack_entry;
  long top;
  // The node the next step visits (-1: none) and the ray's entry into it.
  int32_t node;
  float node_entry;
  // The last visited node and its leaf lanes the ray hits, to test first in the next step.
  int32_t leaf_node;
  int leaf_lanes;
  long ray;
} walk;

AVX2 static inline void start(walk *w, const char *rays, long ray_stride, long origin_offset, long direction_offset,
                              long k, double t_min, double t_max) {
  const double *o = (const double *)(rays + k * ray_stride + origin_offset);
  const double *d = (const double *)(rays + k * ray_stride + direction_offset);
  prepare(o, d, &w->r);
  w->best.t = t_max;
  w->best.u = 0;
  w->best.v = 0;
  w->best.triangle = LONG_MAX;
  w->near = float_below(t_min * w->r.parameter_scale);
  w->far = float_above(t_max * w->r.parameter_scale);
  w->top = 0;
  w->node = 0;
  w->node_entry = -INFINITY;
  w->leaf_lanes = 0;
  w->leaf_node = 0;
  w->ray = k;
}

// The scaled distances along the ray to eight planes (floats at `planes`) from `origin` (the
// bracket end that errs the safe way), with `inverse` the reciprocal of the scaled direction.
AVX2 static INLINE __m256 slab_distance(const float *planes, float origin, float inverse) {
  return _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(planes), _mm256_set1_ps(origin)), _mm256_set1_ps(inverse));
}

// Asks for the node's four cache lines: it is visited when this walk's turn comes again.
static inline void prefetch_node(const float *nodes, int32_t node) {
  const char *c = (const char *)(nodes + (long)node * node_floats);
  __builtin_prefetch(c, 0, 3);
  __builtin_prefetch(c + 64, 0, 3);
  __builtin_prefetch(c + 128, 0, 3);
  __builtin_prefetch(c + 192, 0, 3);
}

// For each set of lanes (a bit a lane), the lanes in order, then zeros: the permutation that
// left-packs them.
typedef int32_t packing_table[256][8];

static void fill_packing(packing_table packing) {
  for (int set = 0; set < 256; set++) {
    int k = 0;
    for (int lane = 0; lane < 8; lane++) {
      if (set & (1 << lane)) packing[set][k++] = lane;
    }
    while (k < 8) packing[set][k++] = 0;
  }
}

// One step of walk w; 0 once it is over.
AVX2 static INLINE int step(walk *w, const float *nodes, const void *packets, int doubles, double t_min, double t_max,
                            float widen, const packing_table packing) {
  while (w->leaf_lanes) {
    int lane = __builtin_ctz(w->leaf_lanes);
    w->leaf_lanes &= w->leaf_lanes - 1;
    int32_t child = ((const int32_t *)(nodes + (long)w->leaf_node * node_floats + child_floats))[lane];
    intersect_packet(&w->r, packets, doubles, ~child, t_min, t_max, &w->best);
    // Recomputed whether or not the packet held a better hit: the same value then, no branch.
    w->far = float_above(w->best.t * w->r.parameter_scale);
  }
  // The next node, unless a hit found since it was chosen leaves it behind.
  float limit = w->far * widen;
  if (w->node_entry > limit) {
    // The topmost stacked node the ray can still reach, found eight entries at a time (the
    // nodes above it are left behind too; a pop at a time cost a mispredicted exit a ray).
    __m256 reach = _mm256_set1_ps(limit);
    long top = w->top;
    for (;;) {
      long base = top >= 8 ? top - 8 : 0;
      int lanes = top >= 8 ? 0xFF : (1 << top) - 1;
      int within = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(w->stack_entry + base), reach, _CMP_LE_OQ)) & lanes;
      if (within) {
        top = base + 31 - __builtin_clz(within);
        break;
      }
      if (base == 0) {
        w->top = 0;
        return 0;
      }
      top = base;
    }
    w->top = top;
    w->node = w->stack_node[top];
    w->node_entry = w->stack_entry[top];
  }
  if (w->node < 0) return 0;

  const prepared_ray *r = &w->r;
  const float *n = nodes + (long)w->node * node_floats;
  __m256 nx = slab_distance(n + r->near_offset[0], r->near_origin[0], r->inverse[0]);
  __m256 fx = slab_distance(n + r->far_offset[0], r->far_origin[0], r->inverse[0]);
  __m256 ny = slab_distance(n + r->near_offset[1], r->near_origin[1], r->inverse[1]);
  __m256 fy = slab_distance(n + r->far_offset[1], r->far_origin[1], r->inverse[1]);
  __m256 nz = slab_distance(n + r->near_offset[2], r->near_origin[2], r->inverse[2]);
  __m256 fz = slab_distance(n + r->far_offset[2], r->far_origin[2], r->inverse[2]);
  __m256 entry = _mm256_max_ps(_mm256_max_ps(nx, ny), _mm256_max_ps(nz, _mm256_set1_ps(w->near)));
  __m256 exit = _mm256_mul_ps(_mm256_min_ps(_mm256_min_ps(_mm256_min_ps(fx, fy), fz), _mm256_set1_ps(w->far)),
                              _mm256_set1_ps(widen));
  __m256i children = _mm256_loadu_si256((const __m256i *)(n + child_floats));
  __m256 hit_lanes = _mm256_cmp_ps(entry, exit, _CMP_LE_OQ);
  int hits = _mm256_movemask_ps(hit_lanes);
  int leaves = hits & _mm256_movemask_ps(_mm256_castsi256_ps(children));
  int inner = hits & ~leaves;
  const int32_t *child = (const int32_t *)(n + child_floats);
  // Ask for every leaf packet and child this visit found before any of them is used.
  long packet_bytes = doubles ? 8 * packet_length : 4 * packet_length;
  for (int pending = leaves; pending; pending &= pending - 1) {
    const char *p = (const char *)packets + packet_bytes * (long)~child[__builtin_ctz(pending)];
    for (long offset = 0; offset < packet_bytes; offset += 64) __builtin_prefetch(p + offset, 0, 3);
    __builtin_prefetch(p + packet_bytes - 1, 0, 3);
  }
  w->leaf_node = w->node;
  w->leaf_lanes = leaves;
  // The nearest inner child is next; the others are stacked as they come, left-packed by a
  // permutation from `packing` (a sorted stack cost a mispredicted branch a lane, and the
  // answer does not depend on the order).
  if (inner) {
    __m256 inner_lanes = _mm256_andnot_ps(_mm256_castsi256_ps(_mm256_srai_epi32(children, 31)), hit_lanes);
    __m256 masked = _mm256_blendv_ps(_mm256_set1_ps(INFINITY), entry, inner_lanes);
    __m256 m = _mm256_min_ps(masked, _mm256_permute_ps(masked, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm256_min_ps(m, _mm256_permute_ps(m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm256_min_ps(m, _mm256_permute2f128_ps(m, m, 1));
    int nearest = __builtin_ctz(_mm256_movemask_ps(_mm256_cmp_ps(masked, m, _CMP_EQ_OQ)) & inner);
    int others = inner & ~(1 << nearest);
    __m256i order = _mm256_loadu_si256((const __m256i *)packing[others]);
    _mm256_storeu_ps(w->stack_entry + w->top, _mm256_permutevar8x32_ps(entry, order));
    _mm256_storeu_si256((__m256i *)(w->stack_node + w->top), _mm256_permutevar8x32_epi32(children, order));
    w->top += __builtin_popcount(others);
    w->node = child[nearest];
    w->node_entry = _mm256_cvtss_f32(m);
    prefetch_node(nodes, w->node);
    return 1;
  }
  if (w->top > 0) {
    w->top--;
    w->node = w->stack_node[w->top];
    w->node_entry = w->stack_entry[w->top];
    prefetch_node(nodes, w->node);
    return 1;
  }
  w->node = -1;
  w->node_entry = -INFINITY;
  return w->leaf_lanes != 0;
}

enum { in_flight = 8 };

// Walks the rays, in_flight at a time, stepped in turn. `doubles`: the packets' type.
AVX2 static INLINE void walk_rays(const float *nodes, const void *packets, const int doubles, const char *rays,
                                  long ray_stride, long origin_offset, long direction_offset, long count, double t_min,
                                  double t_max, walk *walks, const packing_table packing, arscene_ray_hit *out) {
  float widen;
  memcpy(&widen, &widen_bits, 4);
  long next = 0, running = 0;
  int active[in_flight];
  for (int s = 0; s < in_flight; s++) {
    active[s] = next < count;
    if (active[s]) {
      start(&walks[s], rays, ray_stride, origin_offset, direction_offset, next++, t_min, t_max);
      running++;
    }
  }
  while (running > 0) {
    for (int s = 0; s < in_flight; s++) {
      if (!active[s]) continue;
      walk *w = &walks[s];
      if (step(w, nodes, packets, doubles, t_min, t_max, widen, packing)) continue;
      out[w->ray] = w->best;
      if (next < count) {
        start(w, rays, ray_stride, origin_offset, direction_offset, next++, t_min, t_max);
      } else {
        active[s] = 0;
        running--;
      }
    }
  }
}

AVX2 void arscene_closest_hits_avx2(const float *nodes, const void *packets, int packet_doubles, const char *rays,
                                    long ray_stride, long origin_offset, long direction_offset, long count,
                                    double t_min, double t_max, long stack_capacity, arscene_ray_hit *out) {
  // Eight spare entries a stack: a visit stores eight lanes, of which it keeps only some.
  long capacity = stack_capacity + 8;
  int32_t *stack_nodes = malloc(sizeof(int32_t) * (size_t)(capacity * in_flight));
  float *stack_entries = malloc(sizeof(float) * (size_t)(capacity * in_flight));
  walk *walks = aligned_alloc(64, sizeof(walk) * in_flight);
  for (int s = 0; s < in_flight; s++) {
    walks[s].stack_node = stack_nodes + s * capacity;
    walks[s].stack_entry = stack_entries + s * capacity;
  }
  packing_table packing;
  fill_packing(packing);
  if (packet_doubles) {
    walk_rays(nodes, packets, 1, rays, ray_stride, origin_offset, direction_offset, count, t_min, t_max, walks, packing,
              out);
  } else {
    walk_rays(nodes, packets, 0, rays, ray_stride, origin_offset, direction_offset, count, t_min, t_max, walks, packing,
              out);
  }
  free(walks);
  free(stack_nodes);
  free(stack_entries);
}

#else
void arscene_closest_hits_avx2(const float *nodes, const void *packets, int packet_doubles, const char *rays,
                               long ray_stride, long origin_offset, long direction_offset, long count, double t_min,
                               double t_max, long stack_capacity, arscene_ray_hit *out) {
  (void)nodes, (void)packets, (void)packet_doubles, (void)rays, (void)ray_stride, (void)origin_offset;
  (void)direction_offset, (void)count, (void)t_min, (void)t_max, (void)stack_capacity, (void)out;
  abort();
}
#endif
