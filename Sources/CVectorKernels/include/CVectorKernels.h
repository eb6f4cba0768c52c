// Hot loops in C. Those marked "AVX2 only" are compiled for AVX2 as well as for the portable
// x86-64 baseline, chosen at run time: the Swift build targets baseline x86-64 (SSE2), these
// functions carry their own target attribute, and callers ask `arscene_cpu_has_avx2()` before
// calling one. Each gives the bits of the portable Swift code it stands for: the film loops
// compute the same sums in the same order, the ray kernel the same triangle tests (its boxes
// are another tree's, but only decide which triangles are tested, never a hit), a model's
// placement the same points, boxes and normals, all without fused multiply-adds. The others are portable C loops the compiler vectorises for any target:
// marker detection's thresholds and runs on bytes (where Swift's SIMD types compiled a byte
// comparison lane by lane), with the decisions of the Swift rules they stand for; and a mesh's
// indices written with stores that bypass the cache on x86-64 (Swift has no such store).
#ifndef ARSCENE_CVECTORKERNELS_H
#define ARSCENE_CVECTORKERNELS_H

#include <stdint.h>

/// 1 when this CPU and the operating system run AVX2 instructions, else 0 (always 0 off x86-64,
/// and with ARSCENE_PORTABLE_KERNELS set to anything but 0 or empty).
int arscene_cpu_has_avx2(void);

/// A symmetric weighted sum of 2r + 1 sources, the centre first and then pairs: for x in
/// [0, count), out[x] = w[0]·sources[0][x] + Σ_{k = 1…r} w[k]·(sources[2k − 1][x] +
/// sources[2k][x]), summed in that order. Down columns the sources are rows k above and below;
/// along a row, the row shifted k left and right. `count` must be a multiple of 8. AVX2 only.
void arscene_symmetric_sum_avx2(const float *const *sources, const float *w, long r, long count, float *out);

/// The bilateral filter of radius 1, for x in [from, to) (`to − from` a multiple of 8, the
/// columns x − 1 and x + 1 inside the rows): each output the mean of the nine taps weighted by
/// `weights` (corner, side, middle) times the range weight (1 − d²·`rangeScale`)⁸ of the key
/// difference d, taps and roundings in the order of the portable loop. `rows`: the red, green,
/// blue and key planes of the row above, the centre row and the row below, then the centre
/// row's alpha; `out`: red, green, blue and alpha (copied). AVX2 only.
void arscene_bilateral3_avx2(const float *const *rows, const float *weights, float rangeScale, long from, long to,
                             float *const *out);

/// A ray's closest hit: its parameter, barycentric coordinates (u, v) and triangle index
/// (`LONG_MAX` and `t` = tMax when the ray hits nothing).
typedef struct {
  double t, u, v;
  long triangle;
} arscene_ray_hit;

/// Closest hits of `count` rays with an ARHit `EightWideTree` (`nodes`, 64 floats a node, root
/// first) over the leaf packets `packets` (`Float`, or `Double` when `packet_doubles`): ray k's
/// origin and direction are three doubles at `rays + k·ray_stride + origin_offset` and
/// `… + direction_offset` (bytes). Hits in [t_min, t_max]; of hits at the same parameter the
/// lowest triangle index wins, which makes the answer that of ARHit's portable traversal, bit
/// for bit, though the two walk different trees. `stack_capacity`: the tree's. AVX2 only.
void arscene_closest_hits_avx2(const float *nodes, const void *packets, int packet_doubles, const char *rays,
                               long ray_stride, long origin_offset, long direction_offset, long count, double t_min,
                               double t_max, long stack_capacity, arscene_ray_hit *out);

/// The nearest of `count` marker `codes` to any of a reading's four quarter turns `turned`,
/// within `limit` bits: the first (turn, then id) at the least distance, and whether another id
/// lies as near (`tied`). `id` is −1 when none is within `limit`. The same answer on every CPU;
/// where POPCNT runs (and ARSCENE_PORTABLE_KERNELS is unset or 0) with that instruction.
typedef struct {
  long id;
  int distance;
  int turn;
  int tied;
} arscene_code_match;

void arscene_nearest_code(const unsigned long long *codes, long count, const unsigned long long turned[4],
                          int limit, arscene_code_match *out);

/// The AprilTag library's tile midpoint rule on 8-bit `levels` (`width` × `height`, rows packed):
/// `dark[i]` is 1 where level i is below the middle of the lowest and highest levels in the 3 × 3
/// tiles of 4 × 4 pixels around its tile, those two at least `contrast` apart and the lowest at
/// most half the highest; 0 elsewhere. The same decisions as ARMarkers' `midpointThreshold` on
/// the levels as floats. Returns 0 when its scratch memory could not be had (nothing written).
int arscene_midpoint_dark(const unsigned char *levels, long width, long height, int contrast, unsigned char *dark);

/// The window-mean rule on 8-bit `levels` (`width` × `height`, rows packed), or with `halve` on
/// the image halved (each value the mean of a 2 × 2 block, an odd last row or column dropped):
/// `dark[i]` is 1 where value i is more than 7 levels below the mean of the `window` × `window`
/// values around it (the window cut at the image's edges), else 0. Decided in 32-bit integers,
/// exactly: the decisions of ARMarkers' `threshold(window:)` on the values as floats. `dark` holds
/// the (halved) image's pixels. Returns 0, writing nothing, when a sum could pass `INT32_MAX` or
/// scratch memory could not be had.
int arscene_window_dark(const unsigned char *levels, long width, long height, long window, int halve,
                        unsigned char *dark);

/// A run of dark pixels: row `y`, columns `start ..< end`.
typedef struct {
  int y, start, end;
} arscene_run;

/// The runs of 1s in the `width` bytes of `row` (each 0 or 1), left to right, written to `runs`
/// (room for `(width + 1) / 2`) as row `y`'s; returns how many.
long arscene_dark_row_runs(const unsigned char *row, long width, int y, arscene_run *runs);

/// out[k] = in[k] + base for k in [0, count), wrapping: a mesh's triangle corners offset by its
/// first vertex. The stores bypass the cache on x86-64 (`out` is not read before it is written:
/// no line is fetched to be overwritten) and are fenced before the function returns.
void arscene_offset_indices(const uint32_t *in, uint32_t *out, long count, uint32_t base);

/// The box of the points a placement writes: lowest and highest coordinates, and whether one
/// was not a number (then the box says nothing).
typedef struct {
  double low[3], high[3];
  int unordered;
} arscene_box;

/// Points `from ..< to` of `points` (SIMD3<Double>: four doubles each, the fourth unread)
/// through the affine `world` (16 doubles, column-major) less `origin` (three doubles), written
/// as floats to `positions` (SIMD3<Float>: four floats each, at the point's index), and their box
/// before `origin` is taken off, in `box`. The bits of ARMesh's `GLTFPlacementLayout` loop.
/// AVX2 only.
void arscene_place_points_avx2(const double *points, long from, long to, const double *world, const double *origin,
                               float *positions, arscene_box *box);

/// Adds each of `count / 3` triangles' cross products (corners `triangles`, indices of `points`,
/// four doubles each) to its corners' sums in `sums` (four doubles each, the fourth left as
/// zero plus zero), in the order of ARMesh's `addSmoothNormals`, fans included. AVX2 only.
void arscene_add_smooth_normals_avx2(const double *points, const uint32_t *triangles, long count, double *sums);

/// arscene_place_points_avx2 and arscene_add_smooth_normals_avx2 over points held as floats
/// (a file's bytes: three a point, packed, any alignment), four bytes readable past the last
/// point (its 128-bit load): the same bits as those of the same points widened to doubles.
void arscene_place_float_points_avx2(const void *points, long from, long to, const double *world, const double *origin,
                                     float *positions, arscene_box *box);
void arscene_add_float_smooth_normals_avx2(const void *points, const uint32_t *triangles, long count, double *sums);

/// For v in [from, to): `matrix` (3 columns of four doubles, the fourth unread) times
/// `vectors[v]` (four doubles each) made unit in float and written to `out` (four floats each,
/// at v): the bits of ARMesh's `GLTFPlacementLayout.writeUnit`, (0, 1, 0) for a zero or
/// non-finite vector. AVX2 only.
void arscene_write_unit_normals_avx2(const double *vectors, long from, long to, const double *matrix, float *out);

/// `count` vectors of three little-endian floats at `floats` (packed, any alignment) as
/// SIMD3<Double> in `out` (four doubles each, the fourth zero): exact.
void arscene_widen_float3(const void *floats, long count, double *out);

/// 1 when each of `count` vectors of three floats at `floats` (packed, any alignment, the host's
/// byte order) is finite, else 0.
int arscene_float3_finite(const void *floats, long count);

#endif
