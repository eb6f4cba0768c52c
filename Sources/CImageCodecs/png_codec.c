// libpng's classic API: errors longjmp back to the setjmp in each function below, never past it.
#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char *message;
  size_t size;
} error_sink;

uint64_t arscene_image_max_pixels = 100000000;

void arscene_image_set_max_pixels(uint64_t pixels) { arscene_image_max_pixels = pixels; }

static void on_error(png_structp png, png_const_charp text) {
  error_sink *sink = (error_sink *)png_get_error_ptr(png);
  if (sink && sink->size) snprintf(sink->message, sink->size, "%s", text);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

typedef struct {
  const uint8_t *bytes;
  size_t count, offset;
} memory_reader;

static void read_memory(png_structp png, png_bytep out, png_size_t length) {
  memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
  if (length > reader->count - reader->offset) png_error(png, "the file ends early (truncated PNG)");
  memcpy(out, reader->bytes + reader->offset, length);
  reader->offset += length;
}

void arscene_buffer_free(void *buffer) { free(buffer); }

void arscene_image_free(arscene_image *image) {
  if (image) {
    free(image->pixels);
    image->pixels = NULL;
  }
}

static int decode_with_libpng(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                              uint8_t *caller_buffer, size_t capacity, char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  if (count < 8 || png_sig_cmp(bytes, 0, 8)) {
    snprintf(message, message_size, "not a PNG file (bad signature)");
    return 1;
  }
  error_sink sink = {message, message_size};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    png_destroy_read_struct(&png, &info, NULL);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  // Volatile: both change after setjmp, and longjmp restores registers (C11 7.13.2.1), which
  // left the handler freeing the NULLs of setjmp's time: every PNG that failed after its header
  // leaked its row table, and its pixels when decoded to a buffer of its own.
  png_bytep volatile pixels = NULL;
  png_bytepp volatile rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    if (pixels != caller_buffer) free(pixels);
    png_destroy_read_struct(&png, &info, NULL);
    memset(out, 0, sizeof *out);
    return 1;
  }
  memory_reader reader = {bytes, count, 8};
  png_set_read_fn(png, &reader, read_memory);
  png_set_sig_bytes(png, 8);
  png_set_user_limits(png, 1u << 16, 1u << 16);  // refuse absurd sizes before allocating
  png_read_info(png, info);

  png_uint_32 width, height;
  int depth, color, interlace;
  png_get_IHDR(png, info, &width, &height, &depth, &color, &interlace, NULL, NULL);
  if ((uint64_t)width * height > arscene_image_max_pixels) {
    char reason[160];
    snprintf(reason, sizeof reason,
             "%ux%u is more pixels than the image budget of %llu (ARSCENE_MAX_IMAGE_PIXELS raises it)",
             (unsigned)width, (unsigned)height, (unsigned long long)arscene_image_max_pixels);
    png_error(png, reason);
  }
  // Normalise to 8 or 16-bit grey / grey+alpha / RGB / RGBA, keeping 16-bit samples exact.
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (as_rgba8) {
    if (depth == 16) png_set_scale_16(png);  // rounds v·255/65535, unlike strip_16's truncation
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);  // opaque alpha where the file has none
  } else if (depth == 16) {
    png_set_swap(png);  // PNG stores big-endian; hand out native uint16
  }
  int passes = png_set_interlace_handling(png);
  (void)passes;
  png_read_update_info(png, info);

  int gamma_like_srgb = 1;
  double gamma;
  if (!png_get_valid(png, info, PNG_INFO_sRGB) && png_get_gAMA(png, info, &gamma))
    gamma_like_srgb = gamma > 0.40 && gamma < 0.50;

  size_t row_bytes = png_get_rowbytes(png, info);
  size_t channels = png_get_channels(png, info);
  size_t out_depth = png_get_bit_depth(png, info);
  if (caller_buffer && row_bytes * height > capacity) png_error(png, "the output buffer is too small");
  pixels = caller_buffer ? caller_buffer : (png_bytep)malloc(row_bytes * height);
  rows = (png_bytepp)malloc(sizeof(png_bytep) * height);
  if (!pixels || !rows) png_error(png, "out of memory for the image");
  for (png_uint_32 y = 0; y < height; ++y) rows[y] = pixels + y * row_bytes;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);

  out->width = width;
  out->height = height;
  out->channels = (uint32_t)channels;
  out->bit_depth = (uint32_t)out_depth;
  out->interlaced = interlace != PNG_INTERLACE_NONE;
  out->srgb_or_gamma = gamma_like_srgb;
  out->pixels = pixels;
  out->byte_count = row_bytes * height;
  return 0;
}

// Deflate codes at most 258 bytes in 2 bits (a match of length 258 at distance 1, each code one
// bit long), so no stream is more than 1032 times smaller than what it inflates to.
enum { deflate_max_ratio = 1032 };

int arscene_png_header(const uint8_t *bytes, size_t count, uint32_t *width, uint32_t *height,
                       char *message, size_t message_size) {
  *width = 0;
  *height = 0;
  // Signature and IHDR as the first chunk; anything else is left for libpng to name.
  if (count < 24 || png_sig_cmp(bytes, 0, 8) || memcmp(bytes + 12, "IHDR", 4)) return -1;
  uint64_t w = (uint64_t)bytes[16] << 24 | bytes[17] << 16 | bytes[18] << 8 | bytes[19];
  uint64_t h = (uint64_t)bytes[20] << 24 | bytes[21] << 16 | bytes[22] << 8 | bytes[23];
  if (w == 0 || h == 0 || w > 65536 || h > 65536) return -1;  // libpng refuses these itself
  // A depth or colour type that does not exist counts as the smallest (libpng refuses it too, but
  // only after our caller has allocated), as does a header cut before them.
  uint64_t depth = count > 24 && (bytes[24] == 2 || bytes[24] == 4 || bytes[24] == 8 || bytes[24] == 16)
                       ? bytes[24]
                       : 1;
  uint64_t color = count > 25 ? bytes[25] : 0;
  uint64_t channels = color == 2 ? 3 : color == 4 ? 2 : color == 6 ? 4 : 1;
  // The filtered rows the image data must inflate to (Adam7's passes need at least as many).
  uint64_t raw = h * (1 + (w * channels * depth + 7) / 8);
  if (raw > (uint64_t)count * deflate_max_ratio) {
    snprintf(message, message_size,
             "the header's %llux%llu image needs at least %llu bytes of compressed data, more than "
             "the file's %zu bytes (truncated, or a corrupt header)",
             (unsigned long long)w, (unsigned long long)h,
             (unsigned long long)((raw + deflate_max_ratio - 1) / deflate_max_ratio), count);
    return 1;
  }
  if (w * h > arscene_image_max_pixels) {
    snprintf(message, message_size,
             "%llux%llu is more pixels than the image budget of %llu (ARSCENE_MAX_IMAGE_PIXELS raises it)",
             (unsigned long long)w, (unsigned long long)h, (unsigned long long)arscene_image_max_pixels);
    return 1;
  }
  *width = (uint32_t)w;
  *height = (uint32_t)h;
  return 0;
}

// The fast path first; libpng for everything it leaves. Neither allocates for an image the file
// is too small to hold.
static int decode(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                  uint8_t *caller_buffer, size_t capacity, char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  uint32_t width, height;
  if (arscene_png_header(bytes, count, &width, &height, message, message_size) == 1) return 1;
  if (arscene_png_decode_fast(bytes, count, as_rgba8, out, caller_buffer, capacity)) return 0;
  return decode_with_libpng(bytes, count, as_rgba8, out, caller_buffer, capacity, message, message_size);
}

int arscene_png_decode_libpng(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                              char *message, size_t message_size) {
  return decode_with_libpng(bytes, count, as_rgba8, out, NULL, 0, message, message_size);
}

int arscene_png_decode(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                       char *message, size_t message_size) {
  return decode(bytes, count, as_rgba8, out, NULL, 0, message, message_size);
}

int arscene_png_decode_rgba8_into(const uint8_t *bytes, size_t count, uint8_t *out, size_t capacity,
                                  uint32_t *width, uint32_t *height, char *message,
                                  size_t message_size) {
  arscene_image image;
  int status = decode(bytes, count, 1, &image, out, capacity, message, message_size);
  *width = image.width;
  *height = image.height;
  return status;
}

typedef struct {
  uint8_t *bytes;
  size_t count, capacity;
} memory_writer;

static void write_memory(png_structp png, png_bytep data, png_size_t length) {
  memory_writer *w = (memory_writer *)png_get_io_ptr(png);
  if (w->count + length > w->capacity) {
    size_t capacity = w->capacity ? w->capacity : 65536;
    while (capacity < w->count + length) capacity *= 2;
    uint8_t *grown = (uint8_t *)realloc(w->bytes, capacity);
    if (!grown) png_error(png, "out of memory for the encoded PNG");
    w->bytes = grown;
    w->capacity = capacity;
  }
  memcpy(w->bytes + w->count, data, length);
  w->count += length;
}

static void flush_memory(png_structp png) { (void)png; }

int arscene_png_encode(const void *pixels, uint32_t width, uint32_t height, uint32_t channels,
                       uint32_t bit_depth, int compression, int interlace, uint8_t **out,
                       size_t *out_count, char *message, size_t message_size) {
  *out = NULL;
  *out_count = 0;
  if (channels < 1 || channels > 4 || (bit_depth != 8 && bit_depth != 16) || !width || !height) {
    snprintf(message, message_size, "unsupported layout (%u channels, %u bits, %ux%u)", channels,
             bit_depth, width, height);
    return 1;
  }
  static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                    PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  error_sink sink = {message, message_size};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  memory_writer writer = {NULL, 0, 0};
  png_bytepp volatile rows = NULL;  // changes after setjmp: see decode_with_libpng
  if (!png || !info) {
    png_destroy_write_struct(&png, &info);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(rows);
    free(writer.bytes);
    png_destroy_write_struct(&png, &info);
    return 1;
  }
  png_set_write_fn(png, &writer, write_memory, flush_memory);
  png_set_compression_level(png, compression);
  png_set_IHDR(png, info, width, height, (int)bit_depth, color_types[channels - 1],
               interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_write_info(png, info);
  if (bit_depth == 16) png_set_swap(png);
  size_t row_bytes = (size_t)width * channels * (bit_depth / 8);
  rows = (png_bytepp)malloc(sizeof(png_bytep) * height);
  if (!rows) png_error(png, "out of memory");
  for (uint32_t y = 0; y < height; ++y) rows[y] = (png_bytep)pixels + y * row_bytes;
  png_write_image(png, rows);
  png_write_end(png, NULL);
  free(rows);
  png_destroy_write_struct(&png, &info);
  *out = writer.bytes;
  *out_count = writer.count;
  return 0;
}
