// PNG decoding for the files renderers and recorders write (8 or 16-bit grey, grey+alpha, RGB or
// RGBA, not interlaced, no palette or transparency key): the chunks read here, the zlib stream
// inflated by libdeflate, the rows unfiltered here. libpng inflates with zlib, which took 40 of
// the 48 ms a 1920×1440 camera frame cost; libdeflate takes 9. Anything else, and any file
// this path finds fault with, goes to libpng, which decodes it or names what is wrong.
#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "CImageCodecs.h"
#include "png_filters.h"


static uint32_t get32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}


#if defined(__x86_64__)
// Paeth for 3 or 4 bytes a pixel, a pixel's bytes at once in 16-bit SSE2 lanes (libpng does
// the same): the left neighbour makes the row serial, but not the bytes within a pixel.
// Always inlined with a constant `bpp`, so that its loads and stores are single moves.
static inline __attribute__((always_inline)) void unpaeth_sse2(uint8_t *row, const uint8_t *prior,
                                                                size_t row_bytes, size_t bpp) {
  const __m128i zero = _mm_setzero_si128();
  __m128i a = zero, c = zero;  // left and upper-left pixels, as 16-bit lanes
  for (size_t i = 0; i < row_bytes; i += bpp) {
    uint32_t up = 0, here = 0;
    memcpy(&up, prior + i, bpp);
    memcpy(&here, row + i, bpp);
    __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)up), zero);
    __m128i x = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)here), zero);
    // pa = |b − c|, pb = |a − c|, pc = |a + b − 2c|.
    __m128i pbv = _mm_sub_epi16(a, c), pav = _mm_sub_epi16(b, c);
    __m128i pcv = _mm_add_epi16(pav, pbv);
    pav = _mm_max_epi16(pav, _mm_sub_epi16(zero, pav));
    pbv = _mm_max_epi16(pbv, _mm_sub_epi16(zero, pbv));
    pcv = _mm_max_epi16(pcv, _mm_sub_epi16(zero, pcv));
    // a where pa ≤ pb and pa ≤ pc; else b where pb ≤ pc; else c.
    __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pav, pbv), _mm_cmpgt_epi16(pav, pcv));
    __m128i not_b = _mm_cmpgt_epi16(pbv, pcv);
    __m128i bc = _mm_or_si128(_mm_and_si128(not_b, c), _mm_andnot_si128(not_b, b));
    __m128i predictor = _mm_or_si128(_mm_and_si128(not_a, bc), _mm_andnot_si128(not_a, a));
    x = _mm_and_si128(_mm_add_epi16(x, predictor), _mm_set1_epi16(0xFF));
    uint32_t result = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(x, zero));
    memcpy(row + i, &result, bpp);
    a = x, c = b;
  }
}
#endif

// Undoes row filter `type` on `row` (`row_bytes`, `bpp` bytes a pixel) given the unfiltered
// `prior` row (NULL for the first). Returns 0 for an unknown filter type.
static int unfilter(int type, uint8_t *row, const uint8_t *prior, size_t row_bytes, size_t bpp) {
  size_t i;
  switch (type) {
    case 0:
      return 1;
    case 1:
      for (i = bpp; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + row[i - bpp]);
      return 1;
    case 2:
      if (prior)
        for (i = 0; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + prior[i]);
      return 1;
    case 3:
      if (prior) {
        for (i = 0; i < bpp; ++i) row[i] = (uint8_t)(row[i] + (prior[i] >> 1));
        for (; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + (((unsigned)row[i - bpp] + prior[i]) >> 1));
      } else {
        for (i = bpp; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + (row[i - bpp] >> 1));
      }
      return 1;
    case 4:
      if (prior) {
#if defined(__x86_64__)
        if (bpp == 3 || bpp == 4) {
          if (bpp == 3)
            unpaeth_sse2(row, prior, row_bytes, 3);
          else
            unpaeth_sse2(row, prior, row_bytes, 4);
          return 1;
        }
#endif
        for (i = 0; i < bpp; ++i) row[i] = (uint8_t)(row[i] + prior[i]);
        for (; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + paeth(row[i - bpp], prior[i], prior[i - bpp]));
      } else {
        for (i = bpp; i < row_bytes; ++i) row[i] = (uint8_t)(row[i] + row[i - bpp]);
      }
      return 1;
    default:
      return 0;
  }
}

int arscene_png_decode_fast(const uint8_t *bytes, size_t count, int as_rgba8, arscene_image *out,
                            uint8_t *caller_buffer, size_t capacity) {
  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  memset(out, 0, sizeof *out);
  if (count < 8 || memcmp(bytes, signature, 8)) return 0;
  uint32_t width = 0, height = 0, depth = 0, color = 0;
  int header = 0, srgb = 0, gamma_known = 0, ended = 0;
  uint32_t gamma = 0;
  const uint8_t *idat = NULL;  // the compressed stream, if it is one IDAT chunk
  uint8_t *joined = NULL;      // or the IDAT chunks joined
  size_t compressed = 0, chunks = 0;
  // First pass: check every chunk (length, CRC), read the header, measure the IDAT data.
  for (size_t p = 8; p + 12 <= count && !ended;) {
    uint32_t length = get32(bytes + p);
    if (length > count - p - 12) return 0;
    const uint8_t *type = bytes + p + 4, *data = bytes + p + 8;
    if (libdeflate_crc32(0, type, length + 4) != get32(data + length)) return 0;
    if (!memcmp(type, "IHDR", 4)) {
      if (length != 13 || header) return 0;
      width = get32(data), height = get32(data + 4), depth = data[8], color = data[9];
      if (data[10] || data[11] || data[12]) return 0;  // unknown compression or filter, or interlaced
      header = 1;
    } else if (!header) {
      return 0;
    } else if (!memcmp(type, "IDAT", 4)) {
      if (chunks++ == 0) idat = data;
      compressed += length;
    } else if (!memcmp(type, "IEND", 4)) {
      ended = 1;
    } else if (!memcmp(type, "PLTE", 4) || !memcmp(type, "tRNS", 4)) {
      return 0;
    } else if (!memcmp(type, "sRGB", 4)) {
      srgb = 1;
    } else if (!memcmp(type, "gAMA", 4) && length == 4) {
      gamma_known = 1, gamma = get32(data);
    } else if (!(type[0] & 0x20)) {
      return 0;  // an unknown critical chunk: libpng's to judge
    }
    p += 12 + (size_t)length;
  }
  if (!header || !ended || !chunks || !width || !height || width > 65536 || height > 65536) return 0;
  if ((depth != 8 && depth != 16) || (color != 0 && color != 2 && color != 4 && color != 6)) return 0;
  if (as_rgba8 && depth != 8) return 0;  // libpng's rounding of 16-bit samples is the reference
  size_t channels = color == 0 ? 1 : color == 4 ? 2 : color == 2 ? 3 : 4;
  size_t bpp = channels * depth / 8, row_bytes = (size_t)width * bpp;
  if (chunks > 1) {
    joined = malloc(compressed);
    if (!joined) return 0;
    size_t at = 0;
    for (size_t p = 8; p + 12 <= count;) {
      uint32_t length = get32(bytes + p);
      if (!memcmp(bytes + p + 4, "IDAT", 4)) memcpy(joined + at, bytes + p + 8, length), at += length;
      if (!memcmp(bytes + p + 4, "IEND", 4)) break;
      p += 12 + (size_t)length;
    }
    idat = joined;
  }
  // Inflate into exactly the filtered rows (a filter byte, then the row), unfilter in place.
  size_t filtered_size = (row_bytes + 1) * height;
  uint8_t *filtered = malloc(filtered_size);
  struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
  int ok = filtered && inflater &&
           libdeflate_zlib_decompress(inflater, idat, compressed, filtered, filtered_size, NULL) ==
               LIBDEFLATE_SUCCESS;
  libdeflate_free_decompressor(inflater);
  free(joined);
  for (uint32_t y = 0; ok && y < height; ++y) {
    uint8_t *row = filtered + (size_t)y * (row_bytes + 1);
    ok = unfilter(row[0], row + 1, y ? row - row_bytes : NULL, row_bytes, bpp);
  }
  size_t out_channels = as_rgba8 ? 4 : channels;
  size_t out_size = (size_t)width * height * out_channels * (depth / 8);
  uint8_t *pixels = NULL;
  if (ok) pixels = caller_buffer ? (out_size <= capacity ? caller_buffer : NULL) : malloc(out_size);
  if (!pixels) {
    free(filtered);
    return 0;
  }
  // Out: the samples as stored (16-bit ones native-endian), or RGBA8.
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t *row = filtered + (size_t)y * (row_bytes + 1) + 1;
    uint8_t *dest = pixels + (size_t)y * width * out_channels * (depth / 8);
    if (!as_rgba8 && depth == 8) {
      memcpy(dest, row, row_bytes);
    } else if (!as_rgba8) {
      for (size_t i = 0; i < row_bytes; i += 2) dest[i] = row[i + 1], dest[i + 1] = row[i];
    } else {
      // One loop a layout, so that each is a straight copy the compiler can widen.
      switch (channels) {
        case 1:
          for (uint32_t x = 0; x < width; ++x, dest += 4) dest[0] = dest[1] = dest[2] = row[x], dest[3] = 255;
          break;
        case 2:
          for (uint32_t x = 0; x < width; ++x, dest += 4)
            dest[0] = dest[1] = dest[2] = row[2 * x], dest[3] = row[2 * x + 1];
          break;
        case 3:
          for (uint32_t x = 0; x < width; ++x, dest += 4)
            dest[0] = row[3 * x], dest[1] = row[3 * x + 1], dest[2] = row[3 * x + 2], dest[3] = 255;
          break;
        default:
          memcpy(dest, row, row_bytes);
          break;
      }
    }
  }
  free(filtered);
  out->width = width;
  out->height = height;
  out->channels = (uint32_t)out_channels;
  out->bit_depth = depth;
  out->interlaced = 0;
  // As libpng's path says it: sRGB declared, or a gamma near 1/2.2, or nothing said.
  out->srgb_or_gamma = srgb || !gamma_known || (gamma > 40000 && gamma < 50000);
  out->pixels = pixels;
  out->byte_count = out_size;
  return 1;
}
