#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CVectorKernels.h"

// The window-mean rule in 32-bit integers: every sum and product is a whole number, so the
// decisions are those of the rule evaluated exactly. Plain C loops the compiler vectorises for
// the baseline x86-64; only the running sums along a row are a chain.

/// The 2 × 2 blocks' sums of `levels` (`width` × `height`), an odd last row or column dropped:
/// four times the halved image's values, whole.
static void block_sums(const uint8_t *levels, long width, long height, uint16_t *restrict sums) {
  long w = width / 2, h = height / 2;
  for (long y = 0; y < h; y++) {
    const uint8_t *a = levels + 2 * y * width, *b = a + width;
    uint16_t *restrict out = sums + y * w;
    // A pair of pixels read as one 16-bit word and its two bytes added: loads of consecutive
    // words, which the compiler vectorises (loads of every other byte it did not).
    for (long x = 0; x < w; x++) {
      uint16_t u, v;
      memcpy(&u, a + 2 * x, sizeof u);
      memcpy(&v, b + 2 * x, sizeof v);
      out[x] = (uint16_t)((u & 0xff) + (u >> 8) + (v & 0xff) + (v >> 8));
    }
  }
}

/// One row's decisions: value + `offset` below the mean of the window of `rows` rows and
/// 2r + 1 columns (cut at the image's edges), as products (no division). `across[x]`: the
/// window's column sums of columns below x, summed.
static void decide_row(const int32_t *restrict values, long w, long r, int32_t rows, int32_t offset,
                       const int32_t *restrict across, uint8_t *restrict dark) {
  long inner0 = r < w ? r : w, inner1 = w - r - 1 > inner0 ? w - r - 1 : inner0;
  for (long x = 0; x < inner0; x++) {
    long x0 = x - r > 0 ? x - r : 0, x1 = x + r + 1 < w ? x + r + 1 : w;
    dark[x] = (values[x] + offset) * rows * (int32_t)(x1 - x0) < across[x1] - across[x0];
  }
  int32_t area = rows * (int32_t)(2 * r + 1);
  for (long x = inner0; x < inner1; x++) {
    dark[x] = (values[x] + offset) * area < across[x + r + 1] - across[x - r];
  }
  for (long x = inner1; x < w; x++) {
    long x0 = x - r > 0 ? x - r : 0, x1 = x + r + 1 < w ? x + r + 1 : w;
    dark[x] = (values[x] + offset) * rows * (int32_t)(x1 - x0) < across[x1] - across[x0];
  }
}

/// The image the rule runs on: the 8-bit `levels`, or when halved the blocks' 16-bit `sums`
/// (the other NULL); `width` values a row.
typedef struct {
  const uint8_t *levels;
  const uint16_t *sums;
  long width;
} rule_image;

/// `columns[x] += sign · value` for each value x of row `y` of `image` (`sign` ±1).
static void add_row(rule_image image, long y, int32_t sign, int32_t *restrict columns) {
  long w = image.width;
  if (image.sums) {
    const uint16_t *restrict row = image.sums + y * w;
    if (sign > 0) {
      for (long x = 0; x < w; x++) columns[x] += row[x];
    } else {
      for (long x = 0; x < w; x++) columns[x] -= row[x];
    }
  } else {
    const uint8_t *restrict row = image.levels + y * w;
    if (sign > 0) {
      for (long x = 0; x < w; x++) columns[x] += row[x];
    } else {
      for (long x = 0; x < w; x++) columns[x] -= row[x];
    }
  }
}

/// Row `y` of `image` widened into `out`.
static void widen_row(rule_image image, long y, int32_t *restrict out) {
  long w = image.width;
  if (image.sums) {
    for (long x = 0; x < w; x++) out[x] = image.sums[y * w + x];
  } else {
    for (long x = 0; x < w; x++) out[x] = image.levels[y * w + x];
  }
}

typedef int32_t int4 __attribute__((vector_size(16)));

/// `out[x]` = `values[0 ..< x]` summed, for x up to `count`: four values at a time, each
/// vector's own running sums made by two shifted additions, then the total before it added (the
/// chain of additions a row's latency waited on is one a vector, not one a value).
static void running_sums(const int32_t *restrict values, long count, int32_t *restrict out) {
  const int4 zero = {0, 0, 0, 0};
  int4 carry = zero;
  long x = 0;
  out[0] = 0;
  for (; x + 4 <= count; x += 4) {
    int4 v;
    memcpy(&v, values + x, sizeof v);
    v += __builtin_shufflevector(zero, v, 0, 4, 5, 6);
    v += __builtin_shufflevector(zero, v, 0, 1, 4, 5);
    v += carry;
    // out[x + 1 ... x + 4]: the sums through each of the four.
    memcpy(out + x + 1, &v, sizeof v);
    carry = __builtin_shufflevector(v, v, 3, 3, 3, 3);
  }
  int32_t running = out[x];
  for (; x < count; x++) {
    running += values[x];
    out[x + 1] = running;
  }
}

int arscene_window_dark(const unsigned char *levels, long width, long height, long window, int halve,
                        unsigned char *dark) {
  long w = halve ? width / 2 : width, h = halve ? height / 2 : height, r = window / 2;
  // A value's scale (a block's sum is four of its mean) and the largest value.
  int32_t scale = halve ? 4 : 1, largest = 255 * scale, offset = 7 * scale;
  // The largest number reached: a row's running sum of column sums, or a decision's product.
  if (w <= 0 || h <= 0 || (double)(largest + offset) * (double)(2 * r + 1) * (double)(w + 1) >= 2147483647.0) {
    return 0;
  }
  uint16_t *sums = halve ? malloc((size_t)(w * h) * sizeof(uint16_t)) : NULL;
  int32_t *scratch = malloc((size_t)(3 * w + 1) * sizeof(int32_t));
  if ((halve && !sums) || !scratch) {
    free(sums);
    free(scratch);
    return 0;
  }
  if (halve) block_sums(levels, width, height, sums);
  rule_image image = {halve ? NULL : levels, sums, w};
  int32_t *columns = scratch, *values = scratch + w, *across = scratch + 2 * w;
  memset(columns, 0, (size_t)w * sizeof(int32_t));
  for (long y = 0; y < h; y++) {
    // The window's column sums: rows y − r ..< y + r + 1 (cut at the edges), the rows before
    // the first added first.
    for (long k = y == 0 ? 0 : y + r; k <= y + r && k < h; k++) add_row(image, k, 1, columns);
    if (y - r - 1 >= 0) add_row(image, y - r - 1, -1, columns);
    running_sums(columns, w, across);
    long top = y - r > 0 ? y - r : 0, bottom = y + r + 1 < h ? y + r + 1 : h;
    widen_row(image, y, values);
    decide_row(values, w, r, (int32_t)(bottom - top), offset, across, dark + y * w);
  }
  free(sums);
  free(scratch);
  return 1;
}
