// Mesa's llvmpipe through EGL (surfaceless platform) and OpenGL ES 3, with multisampling: the
// peer for the anti-aliased benchmark row (Tools/bench). Needs Debian libegl-dev, libgles-dev
// and libegl-mesa0. Not part of any ARScene product.
#ifndef ARSCENE_MESA_EGL_ORACLE_H
#define ARSCENE_MESA_EGL_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mesa_egl_oracle mesa_egl_oracle;

/// An off-screen RGBA8 framebuffer with 24-bit depth and `samples` samples a pixel (4 at most
/// on llvmpipe), resolved into a single-sample one. NULL when EGL or GLES 3 is unavailable.
/// Set LP_NUM_THREADS before the first.
mesa_egl_oracle *mesa_egl_oracle_create(int width, int height, int samples);
void mesa_egl_oracle_destroy(mesa_egl_oracle *context);

/// Like mesa_oracle_draw (unshared vertices, RGB bytes, flat colours, GL_LESS, no culling,
/// cleared to opaque black), into the multisampled buffer, then resolves it; waits (glFinish).
void mesa_egl_oracle_draw(mesa_egl_oracle *context, const float *positions, const uint8_t *colors,
                          size_t triangle_count, const float *clip_from_world);

/// The resolved image, RGBA8, rows top to bottom.
void mesa_egl_oracle_read(mesa_egl_oracle *context, uint8_t *rgba);

#ifdef __cplusplus
}
#endif

#endif
