// Mesa's llvmpipe through OSMesa and fixed-function OpenGL: the reference the rasterizer is
// cross-checked and benchmarked against (Tools/crosscheck-llvmpipe, Tools/bench). Not part of
// any ARScene product.
#ifndef ARSCENE_MESA_ORACLE_H
#define ARSCENE_MESA_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "MesaEGLOracle.h"  // the multisampled peer, in the same module
#include "MesaLitOracle.h"  // the lit and textured cross-check, in the same module

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mesa_oracle mesa_oracle;

/// An off-screen RGBA8 context with a 24-bit depth buffer. Set LP_NUM_THREADS before the first.
mesa_oracle *mesa_oracle_create(int width, int height);
void mesa_oracle_destroy(mesa_oracle *context);

/// Draws `triangle_count` triangles (3 unshared vertices each: `positions` xyz, `colors` RGB
/// bytes) transformed by `clip_from_world` (16 floats, column-major) with depth test GL_LESS, no
/// culling, flat colours; clears to opaque black first. Waits for completion (glFinish).
void mesa_oracle_draw(mesa_oracle *context, const float *positions, const uint8_t *colors,
                      size_t triangle_count, const float *clip_from_world);

/// Like mesa_oracle_draw, textured: `texcoords` (u, v per vertex) into an RGBA8 texture
/// (`texture_width` × `texture_height`, rows top to bottom) with trilinear filtering and
/// mipmaps (GL_LINEAR_MIPMAP_LINEAR, repeat), modulating the vertex colours.
void mesa_oracle_draw_textured(mesa_oracle *context, const float *positions, const uint8_t *colors,
                               const float *texcoords, size_t triangle_count,
                               const float *clip_from_world, const uint8_t *texture,
                               int texture_width, int texture_height);

/// The image as RGBA8, rows top to bottom (GL's bottom-up rows flipped).
void mesa_oracle_read(mesa_oracle *context, uint8_t *rgba);

#ifdef __cplusplus
}
#endif
#endif
