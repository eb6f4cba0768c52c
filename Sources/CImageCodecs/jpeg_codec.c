// libjpeg-turbo's TurboJPEG API, which reports errors by return code (no longjmp).
#include "CImageCodecs.h"

#include <stdio.h>
#include <turbojpeg.h>

// The start-of-frame marker's code (0xC0-0xCF but DHT 0xC4, JPG 0xC8 and DAC 0xCC), found by
// walking the segments from SOI; 0 when there is none before the entropy-coded data.
static int frame_marker(const uint8_t *bytes, size_t count) {
  size_t at = 2;
  while (at + 4 <= count && bytes[at] == 0xFF) {
    uint8_t code = bytes[at + 1];
    if (code == 0xFF) {  // fill byte before a marker
      at += 1;
      continue;
    }
    if (code >= 0xC0 && code <= 0xCF && code != 0xC4 && code != 0xC8 && code != 0xCC) return code;
    if (code == 0xDA || code == 0xD9) return 0;  // start of scan or end of image: no frame first
    at += 2 + ((size_t)bytes[at + 2] << 8 | bytes[at + 3]);
  }
  return 0;
}

// Whether a JPEG of `width` x `height` is larger than the file can hold, checked before the image
// is allocated so that a few bytes cannot claim gigabytes. Huffman coding spends at least one bit
// on each 8x8 block of the component at full resolution, so the file has at least a bit for each;
// arithmetic coding (0xC9-0xCF) has no such floor, and no camera writes it: above 64 megapixels
// it is refused.
static int too_large(const uint8_t *bytes, size_t count, int width, int height, char *message,
                     size_t message_size) {
  int code = frame_marker(bytes, count);
  uint64_t pixels = (uint64_t)width * (uint64_t)height;
  if (code >= 0xC9) {
    if (pixels <= (1u << 26)) return 0;
    snprintf(message, message_size,
             "an arithmetic-coded JPEG of %dx%d: above 64 megapixels only Huffman-coded JPEGs are read",
             width, height);
    return 1;
  }
  uint64_t blocks = (uint64_t)((width + 7) / 8) * (uint64_t)((height + 7) / 8);
  if (blocks <= (uint64_t)count * 8) return 0;
  snprintf(message, message_size,
           "the header's %dx%d image needs at least %llu bytes of coded data, more than the file's %zu "
           "bytes (truncated, or a corrupt header)",
           width, height, (unsigned long long)((blocks + 7) / 8), count);
  return 1;
}

int arscene_jpeg_size(const uint8_t *bytes, size_t count, uint32_t *width_out, uint32_t *height_out,
                      char *message, size_t message_size) {
  tjhandle handle = tjInitDecompress();
  if (!handle) {
    snprintf(message, message_size, "cannot start the JPEG decoder");
    return 1;
  }
  int width, height, subsampling, colorspace;
  int failed = tjDecompressHeader3(handle, bytes, (unsigned long)count, &width, &height, &subsampling, &colorspace);
  if (failed) snprintf(message, message_size, "%s", tjGetErrorStr2(handle));
  tjDestroy(handle);
  if (failed) return 1;
  if (width <= 0 || height <= 0 || width > 65536 || height > 65536) {
    snprintf(message, message_size, "unsupported JPEG size %dx%d", width, height);
    return 1;
  }
  if (too_large(bytes, count, width, height, message, message_size)) return 1;
  if ((uint64_t)width * height > arscene_image_max_pixels) {
    snprintf(message, message_size,
             "%dx%d is more pixels than the image budget of %llu (ARSCENE_MAX_IMAGE_PIXELS raises it)", width,
             height, (unsigned long long)arscene_image_max_pixels);
    return 1;
  }
  *width_out = (uint32_t)width;
  *height_out = (uint32_t)height;
  return 0;
}

int arscene_jpeg_decode_into(const uint8_t *bytes, size_t count, uint32_t channels, uint32_t width,
                             uint32_t height, uint8_t *pixels, char *message, size_t message_size) {
  if (channels != 1 && channels != 4) {
    snprintf(message, message_size, "JPEG decodes to 1 or 4 channels, not %u", channels);
    return 1;
  }
  tjhandle handle = tjInitDecompress();
  if (!handle) {
    snprintf(message, message_size, "cannot start the JPEG decoder");
    return 1;
  }
  int format = channels == 4 ? TJPF_RGBA : TJPF_GRAY;
  // Truncated or damaged files decode with a warning; treat any as an error (never half an image).
  // The size is the one arscene_jpeg_size read from the same bytes: tjDecompress2 scales to it,
  // so it is the file's own.
  int failed = tjDecompress2(handle, bytes, (unsigned long)count, pixels, (int)width, 0, (int)height, format,
                             TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING);
  if (failed) snprintf(message, message_size, "%s", tjGetErrorStr2(handle));
  tjDestroy(handle);
  return failed ? 1 : 0;
}
