// libvips (Debian libvips-dev) behind a small C API: the film benchmark's peer on the operations
// both libraries have. Not part of any ARScene product.
#ifndef ARSCENE_VIPS_ORACLE_H
#define ARSCENE_VIPS_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts libvips once (its thread pool sized to `threads`); 0 on success.
int vips_oracle_start(int threads);

/// The fastest of `rounds` runs of one operation on an 8-bit RGB image (`rgb`, width × height ×
/// 3 bytes), each run from the image in memory to the result in memory as 8-bit RGB:
/// `operation` 0 = recomb by the 3×3 `matrix` (row-major), 1 = gaussblur of 1-σ `sigma` pixels,
/// 2 = gaussnoise of standard deviation `sigma` added. Seconds, or a negative number on error.
double vips_oracle_time(int operation, const uint8_t *rgb, int width, int height, const double *matrix,
                        double sigma, int rounds);

#ifdef __cplusplus
}
#endif
#endif
