// libpng's simplified API with its defaults: the peer Tools/bench measures PNG encoding and
// decoding against. Not part of any ARScene product.
#ifndef ARSCENE_LIBPNG_ORACLE_H
#define ARSCENE_LIBPNG_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Encodes 8-bit RGBA to PNG in memory (png_image_write_to_memory); returns the size, 0 on
/// failure. `out` must hold `capacity` bytes.
size_t libpng_oracle_encode_rgba8(const uint8_t *rgba, uint32_t width, uint32_t height,
                                  uint8_t *out, size_t capacity);

/// Decodes a PNG to 8-bit RGBA (png_image_finish_read); returns 1 on success.
int libpng_oracle_decode_rgba8(const uint8_t *png, size_t count, uint8_t *rgba, size_t capacity);

#ifdef __cplusplus
}
#endif
#endif
