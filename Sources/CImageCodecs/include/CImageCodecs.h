// PNG (libpng) and JPEG (libjpeg-turbo) codecs behind a small C API that never longjmps into
// Swift: libpng reports errors by longjmp, so that stays inside these C functions, and every
// failure comes back as a return code with a message.
#ifndef ARSCENE_IMAGE_CODECS_H
#define ARSCENE_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A decoded image: `channels` samples a pixel (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA), each
/// `bit_depth` bits (8 or 16; 16-bit samples are native-endian uint16), rows top to bottom.
/// Palette images come out as RGB or RGBA, low-bit grey as 8-bit grey.
typedef struct {
  uint32_t width;
  uint32_t height;
  uint32_t channels;
  uint32_t bit_depth;
  uint32_t interlaced;    // the file was Adam7-interlaced (decoding handles it)
  uint32_t srgb_or_gamma; // 1 when the file declares sRGB or a gamma of about 1/2.2 (or says nothing)
  void *pixels;           // malloc'ed; release with arscene_image_free
  size_t byte_count;
} arscene_image;

void arscene_image_free(arscene_image *image);

/// The most pixels an image may have to be decoded: every decoder checks the header's size
/// against it before allocating (ARImageIO passes ARImage's `ImageLimits.maximumPixels`).
extern uint64_t arscene_image_max_pixels;

/// Sets arscene_image_max_pixels.
void arscene_image_set_max_pixels(uint64_t pixels);

/// Releases a buffer returned by arscene_png_encode.
void arscene_buffer_free(void *buffer);

/// Decodes a PNG from memory (the files renderers and recorders write through libdeflate, the
/// rest through libpng). Returns 0 on success; otherwise fills `message` (NUL-terminated).
/// With `as_rgba8` set, every colour type comes out as 8-bit RGBA (grey copied to R, G and B,
/// opaque alpha added, 16-bit samples scaled with rounding) in one pass; otherwise samples
/// keep their stored layout and depth.
/// Decompresses one Zstandard frame of `source_size` bytes into `destination` (at most
/// `destination_size` bytes); the bytes written, or -1 for a corrupt or oversized frame.
long arscene_zstd_decompress(const unsigned char *source, size_t source_size, unsigned char *destination,
                             size_t destination_size);

int arscene_png_decode(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                       char *message, size_t message_size);

/// Decodes the PNGs renderers and recorders write (8 or 16-bit grey, grey+alpha, RGB, RGBA; not
/// interlaced; no palette or tRNS; 8-bit only with `as_rgba8`) with libdeflate, into
/// `caller_buffer` (of `capacity` bytes) when given. Returns 1 on success, 0 for anything else
/// (arscene_png_decode then hands the file to libpng, which decodes it or says what is wrong).
int arscene_png_decode_fast(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                            uint8_t *caller_buffer, size_t capacity);

/// Reads the image size from the IHDR chunk of `bytes` and checks that the file can hold that
/// image, deflate compressing at most 1032:1. Returns 0 with `*width` and `*height` set; 1, with
/// `message` filled, when the image is too large for the file; -1 when there is no IHDR chunk
/// first or its size is 0 or beyond libpng's 65536 (libpng then names what is wrong). Called
/// before any decoder allocates the image, so that a few bytes cannot claim gigabytes.
int arscene_png_header(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height,
                       char *message, size_t message_size);

/// Decodes as arscene_png_decode, always through libpng (files the faster path takes are decoded
/// by it otherwise): the reference the tests hold that path to.
int arscene_png_decode_libpng(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                              char *message, size_t message_size);

/// Decodes a PNG straight into the caller's `out` buffer of `capacity` bytes as 8-bit RGBA
/// (as `arscene_png_decode` with `as_rgba8`), avoiding a second allocation and copy. Fails if
/// the image needs more than `capacity` bytes. Returns 0 on success.
int arscene_png_decode_rgba8_into(const uint8_t *bytes, size_t count, uint8_t *out, size_t capacity,
                                  uint32_t *width, uint32_t *height, char *message,
                                  size_t message_size);

/// Encodes `pixels` (layout as in arscene_image) as PNG into a malloc'ed buffer (`*out`,
/// `*out_count`; release with arscene_buffer_free). `compression` 0–9 (6 is libpng's default), `interlace` 0/1.
int arscene_png_encode(const void *pixels, uint32_t width, uint32_t height, uint32_t channels,
                       uint32_t bit_depth, int compression, int interlace, uint8_t **out,
                       size_t *out_count, char *message, size_t message_size);

/// Encodes as arscene_png_encode, without interlacing, but filters the rows itself (per row the
/// filter whose residuals have the smallest sum of magnitudes, libpng's heuristic) and
/// compresses them with libdeflate at `level` 0–12 (6 its default): several times faster than
/// zlib at the same size. Writes the same sRGB, gAMA and cHRM chunks as arscene_png_encode.
/// `pixels` holds `source_channels` samples a pixel: `channels`, or 4 (RGBA) for an 8-bit RGB
/// file, whose alpha is dropped as rows are filtered.
int arscene_png_encode_deflate(const void *pixels, uint32_t source_channels, uint32_t width, uint32_t height,
                               uint32_t channels, uint32_t bit_depth, int level, uint8_t **out,
                               size_t *out_count, char *message, size_t message_size);

/// A JPEG's size from its header, once the checks that come before any pixel is allocated pass:
/// at most 65536 a side, no more blocks than the file's bits can code (truncated or corrupt
/// headers), within the image budget. Returns 0 on success; otherwise fills `message`.
int arscene_jpeg_size(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height, char *message,
                      size_t message_size);

/// Decodes a JPEG from memory to 8-bit RGBA (alpha 255) or grey, as `channels` asks (4 or 1),
/// into `pixels`, which holds `width` × `height` × `channels` bytes: the size
/// arscene_jpeg_size read. Any warning (truncated or damaged data) is an error.
int arscene_jpeg_decode_into(const uint8_t *bytes, size_t count, uint32_t channels, uint32_t width,
                             uint32_t height, uint8_t *pixels, char *message, size_t message_size);

/// Decodes one channel of a scanline EXR from memory (OpenEXR's C core, every compression it
/// knows) to native 32-bit floats (`channels` 1, `bit_depth` 32), rows top to bottom: the only
/// channel, else the first of `preferred` the file has. Returns 0 on success; otherwise fills
/// `message` (tiled or deep files, no such channel, subsampling, a damaged chunk).
int arscene_exr_decode_channel(const uint8_t *bytes, size_t count, const char *const *preferred,
                               int preferred_count, arscene_image *out, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
