// See egl_context.h.
#include "egl_context.h"

#include <EGL/eglext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mesa_egl_open(EGLDisplay *display, EGLContext *context) {
  *display = EGL_NO_DISPLAY;
  *context = EGL_NO_CONTEXT;
  PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
      (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
  if (!get_display) return 0;
  *display = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (*display == EGL_NO_DISPLAY || !eglInitialize(*display, NULL, NULL)) return 0;
  eglBindAPI(EGL_OPENGL_ES_API);
  EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  *context = eglCreateContext(*display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
  if (*context == EGL_NO_CONTEXT) return 0;
  return eglMakeCurrent(*display, EGL_NO_SURFACE, EGL_NO_SURFACE, *context) == EGL_TRUE;
}

void mesa_egl_close(EGLDisplay display, EGLContext context) {
  if (display == EGL_NO_DISPLAY || context == EGL_NO_CONTEXT) return;
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
}

static GLuint compile(GLenum kind, const char *source) {
  GLuint shader = glCreateShader(kind);
  glShaderSource(shader, 1, &source, NULL);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(shader, sizeof log, NULL, log);
    fprintf(stderr, "MesaOracle: shader does not compile: %s\n", log);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

GLuint mesa_egl_program(const char *vertex_source, const char *fragment_source,
                        const char *const *attributes, int count) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertex_source), fs = compile(GL_FRAGMENT_SHADER, fragment_source);
  if (!vs || !fs) return 0;
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  for (int i = 0; i < count; ++i) glBindAttribLocation(program, (GLuint)i, attributes[i]);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint linked = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  if (!linked) {
    glDeleteProgram(program);
    return 0;
  }
  return program;
}

GLuint mesa_egl_framebuffer(int width, int height, int samples, GLenum color, GLenum depth) {
  GLuint framebuffer = 0, renderbuffers[2] = {0, 0};
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(depth ? 2 : 1, renderbuffers);
  glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[0]);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, color, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, renderbuffers[0]);
  if (depth) {
    glBindRenderbuffer(GL_RENDERBUFFER, renderbuffers[1]);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, depth, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, renderbuffers[1]);
  }
  return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE ? framebuffer : 0;
}

void mesa_egl_read_top_down(int width, int height, uint8_t *rgba) {
  size_t row = (size_t)width * 4;
  uint8_t *bottom_up = malloc(row * height);
  if (!bottom_up) return;
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up);
  for (int y = 0; y < height; ++y)
    memcpy(rgba + (size_t)y * row, bottom_up + (size_t)(height - 1 - y) * row, row);
  free(bottom_up);
}
