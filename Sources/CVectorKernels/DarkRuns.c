#include <stdint.h>
#include <string.h>

#include "CVectorKernels.h"

/// Bit k set where `dark[k]` is 1, for k below 8 (each byte 0 or 1): the bytes of one 64-bit
/// load gathered by one multiplication into its top byte.
static inline uint64_t dark_bits8(const uint8_t *dark) {
  uint64_t word;
  memcpy(&word, dark, sizeof word);
  return (word * 0x0102040810204080ull) >> 56;
}

long arscene_dark_row_runs(const unsigned char *row, long width, int y, arscene_run *runs) {
  long count = 0, x0 = 0;
  int inside = 0;
  int32_t start = 0;
  uint64_t carry = 0;  // the last pixel before the word, dark or not
  // Runs begin and end where a pixel differs from the one before it: the set bits of a word of
  // pixels against itself shifted by one, taken in order, alternately a run's start and end (a
  // branch taken in turn, which the CPU predicts; one a pixel or a byte it did not).
  while (x0 < width) {
    long n = width - x0 < 64 ? width - x0 : 64;
    uint64_t bits = 0;
    long k = 0;
    for (; k + 8 <= n; k += 8) bits |= dark_bits8(row + x0 + k) << k;
    for (; k < n; k++) bits |= (uint64_t)(row[x0 + k] != 0) << k;
    uint64_t changes = bits ^ (bits << 1 | carry);
    if (n < 64) changes &= (1ull << n) - 1;
    carry = bits >> (n - 1) & 1;
    while (changes) {
      int32_t x = (int32_t)(x0 + __builtin_ctzll(changes));
      changes &= changes - 1;
      if (inside) {
        runs[count++] = (arscene_run){y, start, x};
      } else {
        start = x;
      }
      inside = !inside;
    }
    x0 += n;
  }
  if (inside) runs[count++] = (arscene_run){y, start, (int32_t)width};
  return count;
}
