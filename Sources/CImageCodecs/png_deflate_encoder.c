// PNG encoding with our own row filtering and libdeflate's or ISA-L's compression: the fast path
// for the frames the renderer writes (libpng with zlib spends longer compressing a 720p frame than
// the renderer spends drawing it). Chunks and filters per the PNG specification (ISO/IEC 15948).
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CImageCodecs.h"
#include "deflate_join.h"
#include "png_filters.h"

typedef struct {
  uint8_t *bytes;
  size_t count, capacity;
} byte_buffer;

static int reserve(byte_buffer *b, size_t extra) {
  if (b->count + extra <= b->capacity) return 1;
  size_t capacity = b->capacity ? b->capacity : 4096;
  while (capacity < b->count + extra) capacity *= 2;
  uint8_t *grown = realloc(b->bytes, capacity);
  if (!grown) return 0;
  b->bytes = grown;
  b->capacity = capacity;
  return 1;
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

// Appends a chunk: length, type, data, CRC of type and data.
static int chunk(byte_buffer *b, const char type[4], const uint8_t *data, size_t length) {
  if (!reserve(b, length + 12)) return 0;
  uint8_t *p = b->bytes + b->count;
  put32(p, (uint32_t)length);
  memcpy(p + 4, type, 4);
  if (length) memcpy(p + 8, data, length);
  put32(p + 8 + length, libdeflate_crc32(0, p + 4, length + 4));
  b->count += length + 12;
  return 1;
}

static inline size_t magnitude(uint8_t r) { return r < 128 ? r : 256 - r; }


// The costs (sums of residual magnitudes) of the five filters on one row, in one pass: the
// first pixel (no left neighbour) and a first row (none above) apart, the loop has no branch.
static void filter_costs(const uint8_t *row, const uint8_t *prior, size_t row_bytes, size_t bpp, size_t cost[5]) {
  uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  size_t i = 0;
  const uint8_t *above = prior;
  for (; i < bpp && i < row_bytes; ++i) {
    uint8_t x = row[i], up = prior ? prior[i] : 0;
    c0 += magnitude(x), c1 += magnitude(x), c2 += magnitude((uint8_t)(x - up));
    c3 += magnitude((uint8_t)(x - (up >> 1))), c4 += magnitude((uint8_t)(x - up));
  }
  if (!above) {
    // No row above: Up is None, Average halves the left, Paeth is Sub.
    for (; i < row_bytes; ++i) {
      uint8_t x = row[i], left = row[i - bpp];
      c0 += magnitude(x), c2 += magnitude(x);
      c1 += magnitude((uint8_t)(x - left)), c4 += magnitude((uint8_t)(x - left));
      c3 += magnitude((uint8_t)(x - (left >> 1)));
    }
  } else {
    size_t r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    for (; i < row_bytes; ++i) {
      uint8_t x = row[i], left = row[i - bpp], up = above[i], corner = above[i - bpp];
      r0 += magnitude(x);
      r1 += magnitude((uint8_t)(x - left));
      r2 += magnitude((uint8_t)(x - up));
      r3 += magnitude((uint8_t)(x - (uint8_t)(((unsigned)left + up) >> 1)));
      r4 += magnitude((uint8_t)(x - paeth(left, up, corner)));
    }
    c0 += (uint32_t)r0, c1 += (uint32_t)r1, c2 += (uint32_t)r2, c3 += (uint32_t)r3, c4 += (uint32_t)r4;
  }
  cost[0] = c0, cost[1] = c1, cost[2] = c2, cost[3] = c3, cost[4] = c4;
}

// Filters one row with filter `type` into `out` (row_bytes), `bpp` bytes a pixel; returns the
// sum of the residuals read as signed bytes, the heuristic's cost. One tight loop a filter, the
// first pixel (no left neighbour) apart, so that the compiler can vectorise them.
static size_t filter_row(int type, const uint8_t *row, const uint8_t *prior, size_t row_bytes, size_t bpp,
                         uint8_t *out) {
  size_t cost = 0, i;
  switch (type) {
    case 0:
      for (i = 0; i < row_bytes; ++i) cost += magnitude(out[i] = row[i]);
      break;
    case 1:
      for (i = 0; i < bpp; ++i) cost += magnitude(out[i] = row[i]);
      for (; i < row_bytes; ++i) cost += magnitude(out[i] = (uint8_t)(row[i] - row[i - bpp]));
      break;
    case 2:
      if (!prior) return filter_row(0, row, prior, row_bytes, bpp, out);
      for (i = 0; i < row_bytes; ++i) cost += magnitude(out[i] = (uint8_t)(row[i] - prior[i]));
      break;
    case 3:
      if (!prior) {
        for (i = 0; i < bpp; ++i) cost += magnitude(out[i] = row[i]);
        for (; i < row_bytes; ++i) cost += magnitude(out[i] = (uint8_t)(row[i] - (row[i - bpp] >> 1)));
        break;
      }
      for (i = 0; i < bpp; ++i) cost += magnitude(out[i] = (uint8_t)(row[i] - (prior[i] >> 1)));
      for (; i < row_bytes; ++i)
        cost += magnitude(out[i] = (uint8_t)(row[i] - (uint8_t)(((unsigned)row[i - bpp] + prior[i]) >> 1)));
      break;
    default:
      if (!prior) return filter_row(1, row, prior, row_bytes, bpp, out);  // Paeth with no row above is Sub
      for (i = 0; i < bpp; ++i) cost += magnitude(out[i] = (uint8_t)(row[i] - prior[i]));
      for (; i < row_bytes; ++i)
        cost += magnitude(out[i] = (uint8_t)(row[i] - paeth(row[i - bpp], prior[i], prior[i - bpp])));
      break;
  }
  return cost;
}

/// One row filtered into `dest` (its filter byte first), by the filter with the least cost.
static void filter_one_row(const uint8_t *row, const uint8_t *prior, size_t row_bytes, size_t bpp, uint8_t *dest) {
  size_t cost[5] = {0, 0, 0, 0, 0};
  size_t span = row_bytes / 16 / bpp * bpp;
  if (span < 64) {
    filter_costs(row, prior, row_bytes, bpp, cost);
  } else {
    for (int k = 0; k < 4; ++k) {
      size_t offset = row_bytes / 4 * k / bpp * bpp, part[5];
      filter_costs(row + offset, prior ? prior + offset : NULL, span, bpp, part);
      for (int type = 0; type < 5; ++type) cost[type] += part[type];
    }
  }
  int best = 0;
  for (int type = 1; type <= 4; ++type)
    if (cost[type] < cost[best]) best = type;
  dest[0] = (uint8_t)best;
  filter_row(best, row, prior, row_bytes, bpp, dest + 1);
}

/// Row `y` of `source` as the file's samples: the row itself when the layouts agree, else its
/// RGB taken out of RGBA (`source_bpp` 4, `bpp` 3) into `scratch`, two rows used by turns.
static const uint8_t *packed_row(const uint8_t *source, size_t source_bpp, size_t bpp, size_t width, uint32_t y,
                                 uint8_t *scratch) {
  const uint8_t *row = source + (size_t)y * width * source_bpp;
  if (source_bpp == bpp) return row;
  uint8_t *out = scratch + (y & 1) * width * bpp;
  for (size_t x = 0; x < width; ++x) {
    out[3 * x] = row[4 * x], out[3 * x + 1] = row[4 * x + 1], out[3 * x + 2] = row[4 * x + 2];
  }
  return out;
}

/// Filters 8-bit rows `first` to `end` of `source` into `filtered` (each row its filter byte,
/// then the filtered bytes): the filter with the smallest residuals (None first, so ties keep
/// the simplest), judged on four spans that together hold a quarter of the row: as small a file
/// as judging the whole row on camera frames and renders, in about half the filtering time.
/// `source` has `source_bpp` bytes a pixel (see ``packed_row``), `scratch` room for two rows.
static void filter_rows(const uint8_t *source, size_t source_bpp, uint8_t *filtered, size_t width, size_t bpp,
                        uint32_t first, uint32_t end, uint8_t *scratch) {
  size_t row_bytes = width * bpp;
  const uint8_t *prior = first ? packed_row(source, source_bpp, bpp, width, first - 1, scratch) : NULL;
  for (uint32_t y = first; y < end; ++y) {
    const uint8_t *row = packed_row(source, source_bpp, bpp, width, y, scratch);
    filter_one_row(row, prior, row_bytes, bpp, filtered + (size_t)y * (row_bytes + 1));
    prior = row;
  }
}

/// A range of rows for a second thread.
typedef struct {
  const uint8_t *source;
  size_t source_bpp;
  uint8_t *filtered;
  size_t width, bpp;
  uint32_t first, end;
  uint8_t *scratch;
} filter_job;

static void *filter_rows_job(void *argument) {
  filter_job *job = argument;
  filter_rows(job->source, job->source_bpp, job->filtered, job->width, job->bpp, job->first, job->end,
              job->scratch);
  return NULL;
}

/// Every 16-bit row on this thread, its samples turned big-endian through `row16` (two rows).
static void filter_rows16(const uint8_t *source, uint8_t *filtered, size_t row_bytes, size_t bpp, uint32_t height,
                          uint8_t *row16) {
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t *row = source + (size_t)y * row_bytes;
    // PNG stores 16-bit samples big-endian; ours are little-endian.
    uint8_t *mine = row16 + (y & 1) * row_bytes, *theirs = row16 + ((y & 1) ^ 1) * row_bytes;
    for (size_t i = 0; i < row_bytes; i += 2) {
      mine[i] = row[i + 1];
      mine[i + 1] = row[i];
    }
    filter_one_row(mine, y ? theirs : NULL, row_bytes, bpp, filtered + (size_t)y * (row_bytes + 1));
  }
}

/// One part of the filtered rows deflated on its own (a raw stream) with its Adler-32.
typedef struct {
  const uint8_t *input;
  size_t size;
  int level;
  // ISA-L's coder (level 1) rather than libdeflate's, and whether this part ends the stream.
  int fast, last;
  uint8_t *output;
  size_t output_size;  // 0 when the part could not be deflated
  uint32_t adler;
} deflate_part;

/// Deflates a part with libdeflate, which always ends its stream with a final block.
static void deflate_with_libdeflate(deflate_part *part) {
  struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(part->level);
  size_t bound = compressor ? libdeflate_deflate_compress_bound(compressor, part->size) : 0;
  part->output = bound ? malloc(bound) : NULL;
  part->output_size =
      part->output ? libdeflate_deflate_compress(compressor, part->input, part->size, part->output, bound) : 0;
  libdeflate_free_compressor(compressor);
}

/// Deflates a part with ISA-L's level 1, twice as fast as libdeflate's on camera frames for files
/// 1-6% larger. A part that does not end the stream ends with a full flush: its blocks not final,
/// an empty stored block to a byte boundary, no match reaching into the next part, so the next
/// part's stream follows it as it is (no walk to find its last block).
static void deflate_with_isal(deflate_part *part) {
  // Room for ISA-L's stored blocks on data it cannot compress; a part that fills it all is
  // reported as not deflated (the caller starts again with libdeflate).
  size_t capacity = part->size + part->size / 8 + 65536;
  struct isal_zstream *stream = malloc(sizeof *stream);
  uint8_t *level_buffer = malloc(ISAL_DEF_LVL1_DEFAULT);
  part->output = malloc(capacity);
  part->output_size = 0;
  if (stream && level_buffer && part->output && part->size <= UINT32_MAX && capacity <= UINT32_MAX) {
    isal_deflate_init(stream);
    stream->level = 1;
    stream->level_buf = level_buffer;
    stream->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream->next_in = (uint8_t *)part->input;
    stream->avail_in = (uint32_t)part->size;
    stream->next_out = part->output;
    stream->avail_out = (uint32_t)capacity;
    stream->end_of_stream = part->last;
    stream->flush = part->last ? NO_FLUSH : FULL_FLUSH;
    // Done when all input is taken and output room is left over (so the flush or the end was
    // written whole).
    if (isal_deflate(stream) == COMP_OK && stream->avail_in == 0 && stream->avail_out > 0)
      part->output_size = stream->total_out;
  }
  free(stream), free(level_buffer);
}

static void *deflate_part_job(void *argument) {
  deflate_part *part = argument;
  if (part->fast)
    deflate_with_isal(part);
  else
    deflate_with_libdeflate(part);
  part->adler = libdeflate_adler32(1, part->input, part->size);
  return NULL;
}

/// The zlib stream of filtered rows, deflated in one or two parts, before it is written out.
typedef struct {
  deflate_part parts[2];
  int split;
  size_t header_bit, end_bit;  // the first part's last block (when split by libdeflate)
  size_t size;                 // of the whole stream
} zlib_stream;

/// `z` set to deflate all of `filtered` as one part, by ISA-L (`fast`) or libdeflate.
static void one_part(zlib_stream *z, const uint8_t *filtered, size_t size, int level, int fast) {
  *z = (zlib_stream){0};
  z->parts[0] = (deflate_part){.input = filtered, .size = size, .level = level, .fast = fast, .last = 1};
  z->parts[1] = (deflate_part){.level = level, .fast = fast, .last = 1};
}

/// Deflates `filtered` into `z` in one piece, or in two parts on two threads when large, to be
/// joined as pigz joins its blocks (the first part ending with an empty stored block at a byte
/// boundary and no final block, then the second part's stream; the Adler-32s combined): one
/// valid stream whose second part matches nothing in the first. At level 1 ISA-L ends the first
/// part so itself (halves of the rows); libdeflate cannot, so its first part's blocks are walked
/// to find its last, made not final afterwards. Returns 0, or 1 when out of memory.
static int zlib_compress(const uint8_t *filtered, size_t size, size_t row_size, int level, zlib_stream *z) {
  size_t rows = size / row_size;
  int fast = level == 1;
  one_part(z, filtered, size, level, fast);
  pthread_t thread;
  if (size >= ((size_t)1 << 20) && rows >= 64) {
    // libdeflate's first part smaller: its thread also walks its blocks to find the last, which
    // takes about 0.6 of deflating them at level 1 (1M codes in 7.6 ms against 13 ms for 3.7 MB
    // of a camera frame's rows), so 39% of the rows balance the two threads.
    z->parts[0].size = rows * (fast ? 50 : 39) / 100 * row_size;
    z->parts[0].last = 0;
    z->parts[1].input = filtered + z->parts[0].size;
    z->parts[1].size = size - z->parts[0].size;
    z->split = pthread_create(&thread, NULL, deflate_part_job, &z->parts[1]) == 0;
    if (!z->split) z->parts[0].size = size, z->parts[0].last = 1;
  }
  deflate_part_job(&z->parts[0]);
  int walked = !z->split || fast ||
               (z->parts[0].output_size && deflate_find_last_block(z->parts[0].output, z->parts[0].output_size,
                                                                  &z->header_bit, &z->end_bit) == 0);
  if (z->split) pthread_join(thread, NULL);
  int deflated = z->parts[0].output_size && (!z->split || z->parts[1].output_size);
  if (!walked || (fast && !deflated)) {
    // Never seen: libdeflate's stream not walked to its end, or ISA-L out of room. Deflated again
    // in one piece by libdeflate.
    free(z->parts[0].output), free(z->parts[1].output);
    one_part(z, filtered, size, level, 0);
    deflate_part_job(&z->parts[0]);
  } else if (!deflated) {
    free(z->parts[0].output), free(z->parts[1].output);
    return 1;
  }
  if (!z->parts[0].output_size) {
    free(z->parts[0].output);
    return 1;
  }
  size_t first = z->split && !fast ? (z->end_bit + 3 + 7) / 8 + 4 : z->parts[0].output_size;
  z->size = 2 + first + (z->split ? z->parts[1].output_size : 0) + 4;
  return 0;
}

/// Writes the stream `z` describes to `out` (`z->size` bytes) and frees its parts.
static void zlib_write(zlib_stream *z, uint8_t *out) {
  out[0] = 0x78, out[1] = 0x01;  // deflate, 32 KiB window; check bits make 0x7801 a multiple of 31
  uint8_t *at = out + 2;
  const deflate_part *first = &z->parts[0], *second = &z->parts[1];
  uint32_t adler = first->adler;
  if (z->split && first->fast) {
    // ISA-L's first part already ends at a byte boundary with nothing final.
    memcpy(at, first->output, first->output_size);
    at += first->output_size;
    memcpy(at, second->output, second->output_size);
    at += second->output_size;
    adler = adler32_join(adler, second->adler, second->size);
  } else if (z->split) {
    size_t kept = (z->end_bit + 7) / 8, padded = (z->end_bit + 3 + 7) / 8;
    memcpy(at, first->output, kept);
    memset(at + kept, 0, padded - kept);
    at[z->header_bit / 8] &= (uint8_t)~(1u << (z->header_bit % 8));  // the last block, not final
    if (z->end_bit % 8) at[z->end_bit / 8] &= (uint8_t)((1u << (z->end_bit % 8)) - 1);  // padding cleared
    // From end_bit: BFINAL 0 and BTYPE 00 (zero bits), zeros to the byte, then LEN 0 and NLEN.
    at += padded;
    at[0] = 0x00, at[1] = 0x00, at[2] = 0xff, at[3] = 0xff;
    at += 4;
    memcpy(at, second->output, second->output_size);
    at += second->output_size;
    adler = adler32_join(adler, second->adler, second->size);
  } else {
    memcpy(at, first->output, first->output_size);
    at += first->output_size;
  }
  put32(at, adler);
  free(z->parts[0].output), free(z->parts[1].output);
  z->parts[0].output = z->parts[1].output = NULL;
}

int arscene_png_encode_deflate(const void *pixels, uint32_t source_channels, uint32_t width, uint32_t height,
                               uint32_t channels, uint32_t bit_depth, int level, uint8_t **out,
                               size_t *out_count, char *message, size_t message_size) {
  *out = NULL;
  *out_count = 0;
  int repacks = source_channels == 4 && channels == 3 && bit_depth == 8;
  if (channels < 1 || channels > 4 || (bit_depth != 8 && bit_depth != 16) || !width || !height ||
      (source_channels != channels && !repacks)) {
    snprintf(message, message_size, "unsupported layout (%u channels of %u, %u bits, %ux%u)", channels,
             source_channels, bit_depth, width, height);
    return 1;
  }
  static const uint8_t color_types[] = {0, 4, 2, 6};
  size_t bpp = channels * (bit_depth / 8);
  size_t row_bytes = (size_t)width * bpp;
  size_t filtered_size = (row_bytes + 1) * height;
  uint8_t *filtered = malloc(filtered_size);
  // Two rows for each of two threads: 16-bit rows turned big-endian, or RGB out of RGBA.
  uint8_t *scratch = bit_depth == 16 || repacks ? malloc(row_bytes * 4) : NULL;
  if (!filtered || ((bit_depth == 16 || repacks) && !scratch)) {
    free(filtered), free(scratch);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  if (bit_depth == 16) {
    filter_rows16(pixels, filtered, row_bytes, bpp, height, scratch);
  } else if (height >= 64 && (size_t)height * row_bytes >= ((size_t)1 << 20)) {
    // Each filtered row depends only on its raw row and the raw row above: the lower half of the
    // rows is filtered on a second thread while this one filters the upper half.
    filter_job lower = {pixels, source_channels, filtered, width, bpp, height / 2, height,
                        scratch ? scratch + row_bytes * 2 : NULL};
    pthread_t thread;
    int threaded = pthread_create(&thread, NULL, filter_rows_job, &lower) == 0;
    filter_rows(pixels, source_channels, filtered, width, bpp, 0, threaded ? height / 2 : height, scratch);
    if (threaded) pthread_join(thread, NULL);
  } else {
    filter_rows(pixels, source_channels, filtered, width, bpp, 0, height, scratch);
  }
  free(scratch);

  if (level < 0) level = 0;
  if (level > 12) level = 12;
  zlib_stream z;
  int failed = zlib_compress(filtered, filtered_size, row_bytes + 1, level, &z);
  free(filtered);
  if (failed) {
    snprintf(message, message_size, "compression failed (out of memory)");
    return 1;
  }
  // The stream in IDAT chunks of at most 8 MiB (a chunk's length must stay below 2³¹). One
  // chunk, the usual case, is written in place; more are copied out of a whole stream.
  const size_t idat_limit = (size_t)1 << 23;
  uint8_t *zlib = z.size > idat_limit ? malloc(z.size) : NULL;
  if (z.size > idat_limit && !zlib) {
    free(z.parts[0].output), free(z.parts[1].output);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  if (zlib) zlib_write(&z, zlib);
  size_t zlib_size = z.size;

  // Sized once: header chunks, the IDAT chunks, IEND.
  byte_buffer b = {NULL, 0, 0};
  reserve(&b, 8 + 25 + 13 + 16 + 44 + zlib_size + 12 * (zlib_size / idat_limit + 1) + 12);
  static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  uint8_t header[13];
  put32(header, width);
  put32(header + 4, height);
  header[8] = (uint8_t)bit_depth;
  header[9] = color_types[channels - 1];
  header[10] = header[11] = header[12] = 0;  // deflate, adaptive filtering, no interlace
  uint8_t srgb = 0;  // perceptual intent
  uint8_t gama[4], chrm[32];
  put32(gama, 45455);
  static const uint32_t chromaticities[8] = {31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000};
  for (int i = 0; i < 8; ++i) put32(chrm + 4 * i, chromaticities[i]);
  int ok = reserve(&b, 8);
  if (ok) {
    memcpy(b.bytes, signature, 8);
    b.count = 8;
  }
  ok = ok && chunk(&b, "IHDR", header, 13) && chunk(&b, "sRGB", &srgb, 1) && chunk(&b, "gAMA", gama, 4) &&
       chunk(&b, "cHRM", chrm, 32);
  if (!zlib) {
    ok = ok && reserve(&b, zlib_size + 12);
    if (ok) {
      uint8_t *p = b.bytes + b.count;
      put32(p, (uint32_t)zlib_size);
      memcpy(p + 4, "IDAT", 4);
      zlib_write(&z, p + 8);
      put32(p + 8 + zlib_size, libdeflate_crc32(0, p + 4, zlib_size + 4));
      b.count += zlib_size + 12;
    } else {
      free(z.parts[0].output), free(z.parts[1].output);
    }
  }
  for (size_t offset = 0; ok && zlib && offset < zlib_size; offset += idat_limit) {
    size_t length = zlib_size - offset < idat_limit ? zlib_size - offset : idat_limit;
    ok = chunk(&b, "IDAT", zlib + offset, length);
  }
  ok = ok && chunk(&b, "IEND", NULL, 0);
  free(zlib);
  if (!ok) {
    free(b.bytes);
    snprintf(message, message_size, "out of memory");
    return 1;
  }
  *out = b.bytes;
  *out_count = b.count;
  return 0;
}
