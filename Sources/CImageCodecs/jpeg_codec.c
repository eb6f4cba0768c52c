// libjpeg-turbo's TurboJPEG API, which reports errors by return code (no longjmp).
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

int arscene_jpeg_decode(const uint8_t *bytes, size_t count, uint32_t channels, arscene_image *out,
                        char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  if (channels != 1 && channels != 4) {
    snprintf(message, message_size, "JPEG decodes to 1 or 4 channels, not %u", channels);
    return 1;
  }
  tjhandle handle = tjInitDecompress();
  if (!handle) {
    snprintf(message, message_size, "cannot start the JPEG decoder");
    return 1;
  }
  int width, height, subsampling, colorspace;
  if (tjDecompressHeader3(handle, bytes, (unsigned long)count, &width, &height, &subsampling,
                          &colorspace)) {
    snprintf(message, message_size, "%s", tjGetErrorStr2(handle));
    tjDestroy(handle);
    return 1;
  }
  if (width <= 0 || height <= 0 || width > 65536 || height > 65536) {
    snprintf(message, message_size, "unsupported JPEG size %dx%d", width, height);
    tjDestroy(handle);
    return 1;
  }
  size_t byte_count = (size_t)width * height * channels;
  unsigned char *pixels = (unsigned char *)malloc(byte_count);
  if (!pixels) {
    snprintf(message, message_size, "out of memory for the image");
    tjDestroy(handle);
    return 1;
  }
  int format = channels == 4 ? TJPF_RGBA : TJPF_GRAY;
  // Truncated or damaged files decode with a warning; treat any as an error (never half an image).
  if (tjDecompress2(handle, bytes, (unsigned long)count, pixels, width, 0, height, format,
                    TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING)) {
    snprintf(message, message_size, "%s", tjGetErrorStr2(handle));
    free(pixels);
    tjDestroy(handle);
    return 1;
  }
  tjDestroy(handle);
  out->width = (uint32_t)width;
  out->height = (uint32_t)height;
  out->channels = channels;
  out->bit_depth = 8;
  out->srgb_or_gamma = 1;
  out->pixels = pixels;
  out->byte_count = byte_count;
  return 0;
}
