#include "LibPNGOracle.h"

#include <png.h>
#include <string.h>

size_t libpng_oracle_encode_rgba8(const uint8_t *rgba, uint32_t width, uint32_t height,
                                  uint8_t *out, size_t capacity) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  png_alloc_size_t size = capacity;
  if (!png_image_write_to_memory(&image, out, &size, 0, rgba, 0, NULL)) return 0;
  return size;
}

int libpng_oracle_decode_rgba8(const uint8_t *png, size_t count, uint8_t *rgba, size_t capacity) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, png, count)) return 0;
  image.format = PNG_FORMAT_RGBA;
  if (PNG_IMAGE_SIZE(image) > capacity) {
    png_image_free(&image);
    return 0;
  }
  return png_image_finish_read(&image, NULL, rgba, 0, NULL) != 0;
}
