#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "CVectorKernels.h"

// Plain C loops the compiler vectorises for the baseline x86-64 (SSE2 has unsigned byte minimum
// and maximum): sixteen pixels an instruction, where Swift's SIMD types compiled a byte
// comparison into a test and a branch a lane.

enum {
  tile = 4,
  // Room either side of a folded row: a tile's neighbourhood reaches a tile to the left and
  // two tiles' widths to the right of its first column (less at the image's edge), and the
  // sliding minima read 8 further.
  pad_left = tile,
  pad_right = 3 * tile + 8,
};

static inline uint8_t min8(uint8_t a, uint8_t b) { return a < b ? a : b; }
static inline uint8_t max8(uint8_t a, uint8_t b) { return a > b ? a : b; }

/// For every x in [0, count): `low[x]` = the least of `low[x ..< x + 12]` and `high[x]` the
/// greatest of `high[x ..< x + 12]`, by doubling windows of 2, 4 and 8 (`spare`: two rows of
/// `count` + 12 bytes). Reads 12 bytes past `count`.
static void sliding12(uint8_t *restrict low, uint8_t *restrict high, long count, uint8_t *restrict spare_low,
                      uint8_t *restrict spare_high) {
  long n = count + 12;
  // Windows of 2 (in place), then 4 in the spare rows, then 8 + 4 = 12 back in the rows.
  for (long x = 0; x + 1 < n; x++) {
    low[x] = min8(low[x], low[x + 1]);
    high[x] = max8(high[x], high[x + 1]);
  }
  for (long x = 0; x + 3 < n; x++) {
    spare_low[x] = min8(low[x], low[x + 2]);
    spare_high[x] = max8(high[x], high[x + 2]);
  }
  for (long x = 0; x < count; x++) {
    low[x] = min8(min8(spare_low[x], spare_low[x + 4]), spare_low[x + 8]);
    high[x] = max8(max8(spare_high[x], spare_high[x + 4]), spare_high[x + 8]);
  }
}

int arscene_midpoint_dark(const uint8_t *levels, long width, long height, int contrast, uint8_t *dark) {
  long columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile;
  long padded = pad_left + width + pad_right;
  uint8_t *lowest = malloc((size_t)(columns * rows)), *highest = malloc((size_t)(columns * rows));
  uint8_t *scratch = malloc((size_t)(4 * padded + width + columns));
  if (!lowest || !highest || !scratch) {
    free(lowest);
    free(highest);
    free(scratch);
    return 0;
  }
  uint8_t *row_low = scratch, *row_high = scratch + padded;
  uint8_t *spare_low = scratch + 2 * padded, *spare_high = scratch + 3 * padded;
  uint8_t *bound = scratch + 4 * padded, *tile_bound = bound + width;
  for (long ty = 0; ty < rows; ty++) {
    // Beyond the image the folded rows hold what never wins: the tiles there are left out, as
    // the rule leaves out tiles beyond the image. (Refilled each tile row: the sliding minima
    // write over the padding.)
    memset(row_low, 255, (size_t)padded);
    memset(row_high, 0, (size_t)padded);
    // The tile row's rows folded into one, columnwise.
    uint8_t *low = row_low + pad_left, *high = row_high + pad_left;
    const uint8_t *first = levels + ty * tile * width;
    memcpy(low, first, (size_t)width);
    memcpy(high, first, (size_t)width);
    long last = ty * tile + tile < height ? ty * tile + tile : height;
    for (long y = ty * tile + 1; y < last; y++) {
      const uint8_t *restrict row = levels + y * width;
      for (long x = 0; x < width; x++) {
        low[x] = min8(low[x], row[x]);
        high[x] = max8(high[x], row[x]);
      }
    }
    // Each tile's 3 × 1 neighbourhood: the 12 columns from a tile before its first.
    sliding12(row_low, row_high, width + pad_left, spare_low, spare_high);
    for (long tx = 0; tx < columns; tx++) {
      lowest[ty * columns + tx] = row_low[tx * tile];
      highest[ty * columns + tx] = row_high[tx * tile];
    }
  }
  for (long ty = 0; ty < rows; ty++) {
    const uint8_t *above = lowest + (ty > 0 ? ty - 1 : 0) * columns, *here = lowest + ty * columns,
                  *below = lowest + (ty + 1 < rows ? ty + 1 : rows - 1) * columns;
    const uint8_t *above_high = highest + (ty > 0 ? ty - 1 : 0) * columns, *here_high = highest + ty * columns,
                  *below_high = highest + (ty + 1 < rows ? ty + 1 : rows - 1) * columns;
    // A tile's bound: its pixels are dark below ceil((low + high) / 2), the midpoint of whole
    // levels, where low and high are apart as the rule asks; 0 (none dark) where not.
    for (long tx = 0; tx < columns; tx++) {
      int low = min8(above[tx], min8(here[tx], below[tx]));
      int high = max8(above_high[tx], max8(here_high[tx], below_high[tx]));
      int apart = (high - low >= contrast) & (2 * low <= high);
      tile_bound[tx] = apart ? (uint8_t)((low + high + 1) >> 1) : 0;
    }
    // Spread over the tile's pixels: a word a whole tile.
    long whole = width / tile;
    for (long tx = 0; tx < whole; tx++) {
      uint32_t four = tile_bound[tx] * 0x01010101u;
      memcpy(bound + tx * tile, &four, sizeof four);
    }
    for (long x = whole * tile; x < width; x++) bound[x] = tile_bound[x / tile];
    long last = ty * tile + tile < height ? ty * tile + tile : height;
    for (long y = ty * tile; y < last; y++) {
      const uint8_t *restrict row = levels + y * width;
      uint8_t *restrict out = dark + y * width;
      for (long x = 0; x < width; x++) out[x] = row[x] < bound[x];
    }
  }
  free(lowest);
  free(highest);
  free(scratch);
  return 1;
}
