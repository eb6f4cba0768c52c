#include "MesaOracle.h"

#include <GL/gl.h>
#include <GL/osmesa.h>
#include <stdlib.h>
#include <string.h>

struct mesa_oracle {
  OSMesaContext context;
  int width, height;
  uint8_t *buffer;
};

mesa_oracle *mesa_oracle_create(int width, int height) {
  mesa_oracle *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->context = OSMesaCreateContextExt(OSMESA_RGBA, 24, 0, 0, NULL);
  m->width = width;
  m->height = height;
  m->buffer = malloc((size_t)width * height * 4);
  if (!m->context || !m->buffer || !OSMesaMakeCurrent(m->context, m->buffer, GL_UNSIGNED_BYTE, width, height)) {
    mesa_oracle_destroy(m);
    return NULL;
  }
  return m;
}

void mesa_oracle_destroy(mesa_oracle *m) {
  if (!m) return;
  if (m->context) OSMesaDestroyContext(m->context);
  free(m->buffer);
  free(m);
}

void mesa_oracle_draw(mesa_oracle *m, const float *positions, const uint8_t *colors,
                      size_t triangle_count, const float *clip_from_world) {
  OSMesaMakeCurrent(m->context, m->buffer, GL_UNSIGNED_BYTE, m->width, m->height);
  glViewport(0, 0, m->width, m->height);
  glClearColor(0, 0, 0, 1);
  glClearDepth(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);
  glDisable(GL_LIGHTING);
  glDisable(GL_DITHER);
  glShadeModel(GL_FLAT);
  glMatrixMode(GL_PROJECTION);
  glLoadMatrixf(clip_from_world);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glEnableClientState(GL_VERTEX_ARRAY);
  glEnableClientState(GL_COLOR_ARRAY);
  glVertexPointer(3, GL_FLOAT, 0, positions);
  glColorPointer(3, GL_UNSIGNED_BYTE, 0, colors);
  glDrawArrays(GL_TRIANGLES, 0, (GLsizei)(triangle_count * 3));
  glFinish();
}

void mesa_oracle_draw_textured(mesa_oracle *m, const float *positions, const uint8_t *colors,
                               const float *texcoords, size_t triangle_count,
                               const float *clip_from_world, const uint8_t *texture,
                               int texture_width, int texture_height) {
  OSMesaMakeCurrent(m->context, m->buffer, GL_UNSIGNED_BYTE, m->width, m->height);
  static GLuint name = 0;
  if (!name) glGenTextures(1, &name);
  glBindTexture(GL_TEXTURE_2D, name);
  glTexParameteri(GL_TEXTURE_2D, GL_GENERATE_MIPMAP, GL_TRUE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, texture_width, texture_height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, texture);
  glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
  glEnable(GL_TEXTURE_2D);
  glEnableClientState(GL_TEXTURE_COORD_ARRAY);
  glTexCoordPointer(2, GL_FLOAT, 0, texcoords);
  mesa_oracle_draw(m, positions, colors, triangle_count, clip_from_world);
  glDisableClientState(GL_TEXTURE_COORD_ARRAY);
  glDisable(GL_TEXTURE_2D);
}

void mesa_oracle_read(mesa_oracle *m, uint8_t *rgba) {
  size_t row = (size_t)m->width * 4;
  for (int y = 0; y < m->height; ++y)
    memcpy(rgba + (size_t)y * row, m->buffer + (size_t)(m->height - 1 - y) * row, row);
}
