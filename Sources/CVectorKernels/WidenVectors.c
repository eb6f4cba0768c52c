// Float3 arrays as a file stores them (a USD crate's points, millions of numbers): widened to
// Swift's SIMD3<Double> where an array of doubles is asked for, and checked finite, in loops the
// compiler vectorises for any target (Swift's per-number loads and conversions were a
// nanosecond a number). Exact: every float is a double.
#include "CVectorKernels.h"

#include <string.h>

void arscene_widen_float3(const void *floats, long count, double *out) {
  const unsigned char *in = floats;
  for (long i = 0; i < count; i++) {
    float v[3];
    memcpy(v, in + 12 * i, sizeof v);
    out[4 * i] = v[0];
    out[4 * i + 1] = v[1];
    out[4 * i + 2] = v[2];
    out[4 * i + 3] = 0;
  }
}

int arscene_float3_finite(const void *floats, long count) {
  // A float is finite when its exponent bits are not all ones: a loop the compiler vectorises.
  const unsigned char *in = floats;
  unsigned int bad = 0;
  for (long i = 0; i < 3 * count; i++) {
    unsigned int bits;
    memcpy(&bits, in + 4 * i, sizeof bits);
    bad |= (~bits & 0x7F800000u) == 0;
  }
  return bad == 0;
}
