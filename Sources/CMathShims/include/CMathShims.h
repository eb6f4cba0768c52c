// Math library calls and compiler builtins that Swift's Glibc module does not expose.
#ifndef ARSCENE_CMATHSHIMS_H
#define ARSCENE_CMATHSHIMS_H

/// Sine and cosine of `x` (radians) in one libm call (glibc's sincos): the pair costs little
/// more than one of them. Geodesy converts every latitude and longitude this way.
static inline void arscene_sincos(double x, double *s, double *c) { __builtin_sincos(x, s, c); }

/// Asks the CPU to start loading the cache line at `p` for reading: the rasterizer walks a
/// tile's bin, whose triangles sit anywhere in a large array, and fetches the next ones early.
static inline void arscene_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Asks for every cache line of the `bytes` bytes at `p` (each 64-byte step from `p`, and the
/// last byte, whose line a step can miss when `p` is not line-aligned): a ray's leaf packet
/// or a k-d tree leaf's points, wanted whole a little later.
static inline void arscene_prefetch_range(const void *p, long bytes) {
  const char *c = (const char *)p;
  for (long offset = 0; offset < bytes; offset += 64) __builtin_prefetch(c + offset, 0, 3);
  if (bytes > 0) __builtin_prefetch(c + bytes - 1, 0, 3);
}

#endif
