// What the EGL peers share (private to the MesaOracle target): a GLES 3 context on Mesa's
// surfaceless platform, and shader programs built from source.
#ifndef ARSCENE_MESA_EGL_CONTEXT_H
#define ARSCENE_MESA_EGL_CONTEXT_H

#include <EGL/egl.h>
#include <GLES3/gl3.h>
#include <stdint.h>

/// Opens the surfaceless display and a GLES 3 context on it, and makes it current; 0 on
/// failure (then nothing is left open).
int mesa_egl_open(EGLDisplay *display, EGLContext *context);
/// Releases and destroys `context` (if any).
void mesa_egl_close(EGLDisplay display, EGLContext context);
/// Compiles and links a program from two shader sources, binding the attribute names in
/// `attributes` (`count` of them) to locations 0, 1, …; 0 on failure, with the compiler's log
/// on stderr.
GLuint mesa_egl_program(const char *vertex_source, const char *fragment_source,
                        const char *const *attributes, int count);

/// A framebuffer of `width` × `height` with `samples` samples a pixel (0: single-sampled), a
/// colour renderbuffer of format `color` and, unless `depth` is 0, a depth one; left bound.
/// Returns its name, 0 when incomplete.
GLuint mesa_egl_framebuffer(int width, int height, int samples, GLenum color, GLenum depth);

/// Reads the bound read framebuffer's `width` × `height` RGBA8 pixels into `rgba`, rows top to
/// bottom (GL's bottom-up rows flipped).
void mesa_egl_read_top_down(int width, int height, uint8_t *rgba);

#endif
