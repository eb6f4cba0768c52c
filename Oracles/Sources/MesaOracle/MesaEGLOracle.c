// llvmpipe through EGL on Mesa's surfaceless platform and OpenGL ES 3: the multisampled peer
// (OSMesa has no multisampling). See MesaEGLOracle.h.
#include "MesaEGLOracle.h"

#include "egl_context.h"
#include <stdlib.h>
#include <string.h>

struct mesa_egl_oracle {
  EGLDisplay display;
  EGLContext context;
  int width, height, samples;
  GLuint program, buffers[2], multisampled, resolved;
  GLint clip_from_world;
};

static const char *vertex_source =
    "#version 300 es\n"
    "uniform mat4 clip_from_world;\n"
    "in vec3 position;\n"
    "in vec4 color;\n"
    "flat out vec4 flat_color;\n"
    "void main() { gl_Position = clip_from_world * vec4(position, 1.0); flat_color = color; }\n";

static const char *fragment_source =
    "#version 300 es\n"
    "precision mediump float;\n"
    "flat in vec4 flat_color;\n"
    "out vec4 out_color;\n"
    "void main() { out_color = flat_color; }\n";

static void make_current(mesa_egl_oracle *m) {
  eglMakeCurrent(m->display, EGL_NO_SURFACE, EGL_NO_SURFACE, m->context);
}

mesa_egl_oracle *mesa_egl_oracle_create(int width, int height, int samples) {
  mesa_egl_oracle *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->width = width;
  m->height = height;
  m->samples = samples;
  if (!mesa_egl_open(&m->display, &m->context)) goto fail;
  const char *attributes[] = {"position", "color"};
  m->program = mesa_egl_program(vertex_source, fragment_source, attributes, 2);
  if (!m->program) goto fail;
  m->clip_from_world = glGetUniformLocation(m->program, "clip_from_world");
  glGenBuffers(2, m->buffers);

  // The multisampled colour and depth buffers drawn into, and the single-sample colour buffer
  // they resolve to.
  m->multisampled = mesa_egl_framebuffer(width, height, samples, GL_RGBA8, GL_DEPTH_COMPONENT24);
  m->resolved = mesa_egl_framebuffer(width, height, 0, GL_RGBA8, 0);
  if (!m->multisampled || !m->resolved) goto fail;
  return m;
fail:
  mesa_egl_oracle_destroy(m);
  return NULL;
}

void mesa_egl_oracle_destroy(mesa_egl_oracle *m) {
  if (!m) return;
  mesa_egl_close(m->display, m->context);
  free(m);
}

void mesa_egl_oracle_draw(mesa_egl_oracle *m, const float *positions, const uint8_t *colors,
                          size_t triangle_count, const float *clip_from_world) {
  make_current(m);
  GLsizei vertices = (GLsizei)(triangle_count * 3);
  glBindFramebuffer(GL_FRAMEBUFFER, m->multisampled);
  glViewport(0, 0, m->width, m->height);
  glClearColor(0, 0, 0, 1);
  glClearDepthf(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glDisable(GL_DITHER);
  glUseProgram(m->program);
  glUniformMatrix4fv(m->clip_from_world, 1, GL_FALSE, clip_from_world);
  // The triangles are uploaded with every draw, as the OSMesa peer's client arrays are.
  glBindBuffer(GL_ARRAY_BUFFER, m->buffers[0]);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)vertices * 3 * sizeof(float), positions, GL_STREAM_DRAW);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, 0);
  glEnableVertexAttribArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, m->buffers[1]);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)vertices * 3, colors, GL_STREAM_DRAW);
  glVertexAttribPointer(1, 3, GL_UNSIGNED_BYTE, GL_TRUE, 0, 0);
  glEnableVertexAttribArray(1);
  glVertexAttrib4f(1, 0, 0, 0, 1);
  glDrawArrays(GL_TRIANGLES, 0, vertices);
  // Resolve the samples into one colour a pixel.
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m->multisampled);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m->resolved);
  glBlitFramebuffer(0, 0, m->width, m->height, 0, 0, m->width, m->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glFinish();
}

void mesa_egl_oracle_read(mesa_egl_oracle *m, uint8_t *rgba) {
  make_current(m);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m->resolved);
  mesa_egl_read_top_down(m->width, m->height, rgba);
}
