// One channel of a scanline EXR decoded to 32-bit floats through OpenEXR's C core, reading
// from memory (the caller read the file: OpenEXR never opens a path of its own).
#include "CImageCodecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <OpenEXR/openexr.h>

typedef struct {
  const uint8_t *bytes;
  size_t count;
  char error[256];  // the first error OpenEXR reported, "" if none
} exr_memory;

static int64_t exr_memory_read(exr_const_context_t ctxt, void *userdata, void *buffer, uint64_t size,
                               uint64_t offset, exr_stream_error_func_ptr_t error_cb) {
  (void)ctxt;
  (void)error_cb;
  const exr_memory *memory = userdata;
  if (offset >= memory->count) return 0;
  uint64_t available = memory->count - offset;
  uint64_t n = size < available ? size : available;
  memcpy(buffer, memory->bytes + offset, (size_t)n);
  return (int64_t)n;
}

static int64_t exr_memory_size(exr_const_context_t ctxt, void *userdata) {
  (void)ctxt;
  return (int64_t)((const exr_memory *)userdata)->count;
}

// Errors are kept for the caller's message, never printed. OpenEXR 3.1 reports some problems
// only here and reads on (an unknown compression becomes ZIP): any report refuses the file.
static void exr_keep_error(exr_const_context_t ctxt, exr_result_t code, const char *msg) {
  (void)code;
  void *userdata = NULL;
  if (exr_get_user_data(ctxt, &userdata) != EXR_ERR_SUCCESS || !userdata) return;
  exr_memory *memory = userdata;
  if (memory->error[0] == 0) snprintf(memory->error, sizeof memory->error, "%s", msg ? msg : "unknown");
}

static int fail(char *message, size_t size, const char *what, exr_result_t code) {
  if (code == EXR_ERR_SUCCESS) {
    snprintf(message, size, "%s", what);
  } else {
    snprintf(message, size, "%s: %s", what, exr_get_default_error_message(code));
  }
  return 1;
}

/// The channel read: the only one, else the first of `preferred` the file has; -1 for none.
static int pick_channel(const exr_attr_chlist_t *channels, const char *const *preferred, int preferred_count) {
  if (channels->num_channels == 1) return 0;
  for (int p = 0; p < preferred_count; p++) {
    for (int c = 0; c < channels->num_channels; c++) {
      if (strcmp(channels->entries[c].name.str, preferred[p]) == 0) return c;
    }
  }
  return -1;
}

static int decode_chunks(exr_context_t ctxt, const exr_attr_box2i_t *window, int channel, float *pixels,
                         int32_t width, char *message, size_t message_size) {
  int32_t lines_per_chunk = 0;
  exr_result_t rv = exr_get_scanlines_per_chunk(ctxt, 0, &lines_per_chunk);
  if (rv != EXR_ERR_SUCCESS || lines_per_chunk < 1) return fail(message, message_size, "no scanline chunks", rv);
  // Every channel gets a destination: OpenEXR 3.1's fast paths for three or four channels write
  // them all, a NULL pointer included. The channels not read share one scratch chunk.
  float *scratch = calloc((size_t)lines_per_chunk * (size_t)width, sizeof(float));
  if (!scratch) return fail(message, message_size, "out of memory", EXR_ERR_SUCCESS);
  exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
  int started = 0, failed = 0;
  for (int32_t y = window->min.y; y <= window->max.y && !failed; y += lines_per_chunk) {
    exr_chunk_info_t chunk;
    rv = exr_read_scanline_chunk_info(ctxt, 0, y, &chunk);
    if (rv == EXR_ERR_SUCCESS) {
      rv = started ? exr_decoding_update(ctxt, 0, &chunk, &decoder)
                   : exr_decoding_initialize(ctxt, 0, &chunk, &decoder);
    }
    if (rv == EXR_ERR_SUCCESS) {
      started = 1;
      for (int c = 0; c < decoder.channel_count; c++) {
        exr_coding_channel_info_t *info = &decoder.channels[c];
        info->decode_to_ptr = c == channel
                                  ? (uint8_t *)(pixels + (size_t)(chunk.start_y - window->min.y) * (size_t)width)
                                  : (uint8_t *)scratch;
        info->user_pixel_stride = 4;
        info->user_line_stride = 4 * width;
        info->user_bytes_per_element = 4;
        info->user_data_type = EXR_PIXEL_FLOAT;
      }
      rv = exr_decoding_choose_default_routines(ctxt, 0, &decoder);
    }
    if (rv == EXR_ERR_SUCCESS) rv = exr_decoding_run(ctxt, 0, &decoder);
    if (rv != EXR_ERR_SUCCESS) {
      char what[64];
      snprintf(what, sizeof what, "the chunk of line %d", (int)y);
      failed = fail(message, message_size, what, rv);
    }
  }
  if (started) exr_decoding_destroy(ctxt, &decoder);
  free(scratch);
  return failed;
}

int arscene_exr_decode_channel(const uint8_t *bytes, size_t count, const char *const *preferred,
                               int preferred_count, arscene_image *out, char *message, size_t message_size) {
  memset(out, 0, sizeof *out);
  exr_memory memory = {bytes, count, ""};
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  init.user_data = &memory;
  init.read_fn = exr_memory_read;
  init.size_fn = exr_memory_size;
  init.error_handler_fn = exr_keep_error;
  init.max_image_width = 16384;
  init.max_image_height = 16384;
  init.max_tile_width = 16384;
  init.max_tile_height = 16384;
  exr_context_t ctxt = NULL;
  exr_result_t rv = exr_start_read(&ctxt, "exr", &init);
  if (rv != EXR_ERR_SUCCESS) {
    if (memory.error[0]) return fail(message, message_size, memory.error, EXR_ERR_SUCCESS);
    return fail(message, message_size, "not a readable EXR", rv);
  }
  int result = 1;
  exr_storage_t storage;
  exr_compression_t compression = EXR_COMPRESSION_NONE;
  const exr_attr_chlist_t *channels = NULL;
  exr_attr_box2i_t window;
  if (memory.error[0]) {
    fail(message, message_size, memory.error, EXR_ERR_SUCCESS);
  } else if (exr_get_compression(ctxt, 0, &compression) != EXR_ERR_SUCCESS || compression < EXR_COMPRESSION_NONE ||
      compression >= EXR_COMPRESSION_LAST_TYPE) {
    char what[128];
    snprintf(what, sizeof what, "its compression (%d) is newer than this build's OpenEXR %d.%d knows", (int)compression,
             OPENEXR_VERSION_MAJOR, OPENEXR_VERSION_MINOR);
    fail(message, message_size, what, EXR_ERR_SUCCESS);
  } else if (exr_get_storage(ctxt, 0, &storage) != EXR_ERR_SUCCESS || storage != EXR_STORAGE_SCANLINE) {
    fail(message, message_size, "only scanline EXR images are read (this one is tiled or deep)", EXR_ERR_SUCCESS);
  } else if (exr_get_channels(ctxt, 0, &channels) != EXR_ERR_SUCCESS || channels->num_channels < 1) {
    fail(message, message_size, "no channels", EXR_ERR_SUCCESS);
  } else if ((rv = exr_get_data_window(ctxt, 0, &window)) != EXR_ERR_SUCCESS) {
    fail(message, message_size, "no data window", rv);
  } else {
    int channel = pick_channel(channels, preferred, preferred_count);
    int64_t width = (int64_t)window.max.x - window.min.x + 1, height = (int64_t)window.max.y - window.min.y + 1;
    if (channel < 0) {
      char names[160] = "";
      for (int c = 0; c < channels->num_channels && strlen(names) < 120; c++) {
        strncat(names, c ? ", " : "", sizeof names - strlen(names) - 1);
        strncat(names, channels->entries[c].name.str, 32);
      }
      char what[256];
      snprintf(what, sizeof what, "no single channel and none named as expected (it has %s)", names);
      fail(message, message_size, what, EXR_ERR_SUCCESS);
    } else if (channels->entries[channel].x_sampling != 1 || channels->entries[channel].y_sampling != 1) {
      fail(message, message_size, "a subsampled channel is not read", EXR_ERR_SUCCESS);
    } else if (width < 1 || height < 1 || (uint64_t)(width * height) > arscene_image_max_pixels) {
      fail(message, message_size, "its data window is empty or too large", EXR_ERR_SUCCESS);
    } else {
      float *pixels = calloc((size_t)(width * height), sizeof(float));
      if (!pixels) {
        fail(message, message_size, "out of memory", EXR_ERR_SUCCESS);
      } else if (decode_chunks(ctxt, &window, channel, pixels, (int32_t)width, message, message_size)) {
        free(pixels);
      } else {
        out->width = (uint32_t)width;
        out->height = (uint32_t)height;
        out->channels = 1;
        out->bit_depth = 32;
        out->pixels = pixels;
        out->byte_count = (size_t)(width * height) * sizeof(float);
        result = 0;
      }
    }
  }
  exr_finish(&ctxt);
  return result;
}
