// Mesa's llvmpipe through EGL (surfaceless) and OpenGL ES 3 shaders that light and texture as
// ARScene's lit mode does: Blinn–Phong in linear light, material times vertex colour times a
// trilinear texture, cut-out and blended alpha, sRGB output. Tools/crosscheck-llvmpipe renders
// the shipped scenes with it. Not part of any ARScene product.
#ifndef ARSCENE_MESA_LIT_ORACLE_H
#define ARSCENE_MESA_LIT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mesa_lit_oracle mesa_lit_oracle;

/// The most lights of each kind the shader takes.
enum { MESA_LIT_MAX_LIGHTS = 8 };

/// The lights, in the world frame; colours are linear radiance.
typedef struct {
  float ambient[3];
  int directional_count;
  float directional_towards[MESA_LIT_MAX_LIGHTS][3];  // unit, towards the light
  float directional_color[MESA_LIT_MAX_LIGHTS][3];
  int point_count;
  float point_position[MESA_LIT_MAX_LIGHTS][3];  // metres; inverse-square falloff
  float point_color[MESA_LIT_MAX_LIGHTS][3];
  float camera_position[3];
} mesa_lit_lights;

/// How alpha is used: opaque (alpha 1), cut out (discarded below 0.5, else opaque), or
/// blended "over" (no depth write; the caller draws these last, back to front).
enum { MESA_LIT_OPAQUE = 0, MESA_LIT_CUT_OUT = 1, MESA_LIT_BLENDED = 2 };

/// A material, linear colours. Textures come from mesa_lit_oracle_texture (0: none); texture
/// coordinates are `uv · scale + offset` with v up (OBJ's convention).
typedef struct {
  float diffuse[3], specular[3], emissive[3];
  float shininess, opacity;
  int alpha_use;
  int cull_back_faces;
  unsigned texture;          // diffuse (map_Kd), all four channels multiplied in
  float texture_scale[2], texture_offset[2];
  unsigned opacity_texture;  // map_d, its red channel multiplied into alpha
  float opacity_scale[2], opacity_offset[2];
} mesa_lit_material;

/// An off-screen sRGB colour buffer with 32-bit float depth; NULL when EGL, GLES 3 or linear
/// filtering of float textures is unavailable. Set LP_NUM_THREADS before the first.
mesa_lit_oracle *mesa_lit_oracle_create(int width, int height);
void mesa_lit_oracle_destroy(mesa_lit_oracle *oracle);

/// A texture from its whole mip chain, down to 1×1: `level_count` levels of linear RGBA floats,
/// rows top to bottom, sides halving (powers of two), trilinear filtering, repeated or clamped
/// to the edge. Returns its name for mesa_lit_material, 0 on failure.
unsigned mesa_lit_oracle_texture(mesa_lit_oracle *oracle, int level_count, const int *widths,
                                 const int *heights, const float *const *levels, int clamp);

/// Starts a frame: clears to `clear_linear` (RGBA), then, when `background_linear` is not NULL
/// (linear RGBA floats at the output size, rows top to bottom), copies it in as the backdrop.
void mesa_lit_oracle_begin(mesa_lit_oracle *oracle, const float *clear_linear,
                           const float *background_linear, const mesa_lit_lights *lights);

/// Draws `triangle_count` triangles (3 unshared vertices each: `clip` xyzw, the position in
/// clip space, given rather than transformed here so that both renderers rasterize the very
/// same numbers; in the world frame `positions` xyz and `normals` xyz (not necessarily unit);
/// `texcoords` uv; `colors` linear RGB) with `material`, depth test GL_LESS.
void mesa_lit_oracle_draw(mesa_lit_oracle *oracle, const mesa_lit_material *material,
                          const float *clip, const float *positions, const float *normals,
                          const float *texcoords, const float *colors, size_t triangle_count);

/// Waits for the frame and reads it as sRGB-encoded RGBA8, rows top to bottom.
void mesa_lit_oracle_read(mesa_lit_oracle *oracle, uint8_t *rgba);

#ifdef __cplusplus
}
#endif

#endif
