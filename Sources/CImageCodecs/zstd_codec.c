// Zstandard decompression for KTX2 textures (UASTC images are Zstandard-supercompressed), through
// Debian's libzstd: one frame into a buffer of the size the file states, never past it.
#include "CImageCodecs.h"

#include <zstd.h>

long arscene_zstd_decompress(const unsigned char *source, size_t source_size, unsigned char *destination,
                             size_t destination_size) {
  size_t written = ZSTD_decompress(destination, destination_size, source, source_size);
  if (ZSTD_isError(written)) return -1;
  return (long)written;
}
