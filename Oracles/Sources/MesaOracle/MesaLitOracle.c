// llvmpipe lighting and texturing as ARScene's lit mode does. See MesaLitOracle.h.
#include "MesaLitOracle.h"

#include <stdlib.h>
#include <string.h>

#include "egl_context.h"

struct mesa_lit_oracle {
  EGLDisplay display;
  EGLContext context;
  int width, height;
  GLuint lit, backdrop, framebuffer, buffers[5], background;
};

static const char *lit_vertex_source =
    "#version 300 es\n"
    "in vec4 clip;\n"
    "in vec3 position;\n"
    "in vec3 normal;\n"
    "in vec2 texcoord;\n"
    "in vec3 color;\n"
    "out vec3 world;\n"
    "out vec3 world_normal;\n"
    "out vec2 uv;\n"
    "out vec3 vertex_color;\n"
    "void main() {\n"
    "  gl_Position = clip;\n"
    "  world = position;\n"
    "  world_normal = normal;\n"
    "  uv = texcoord;\n"
    "  vertex_color = color;\n"
    "}\n";

// ARScene's LitShader, step for step: base colour (material × vertex colour × texture), alpha
// use, then ambient + emissive + Blinn–Phong per light, two-sided.
static const char *lit_fragment_source =
    "#version 300 es\n"
    "precision highp float;\n"
    "precision highp int;\n"
    "in vec3 world;\n"
    "in vec3 world_normal;\n"
    "in vec2 uv;\n"
    "in vec3 vertex_color;\n"
    "uniform vec3 diffuse, specular, emissive;\n"
    "uniform float shininess, opacity;\n"
    "uniform int alpha_use;\n"
    "uniform bool textured, opacity_textured;\n"
    "uniform sampler2D diffuse_map, opacity_map;\n"
    "uniform vec4 diffuse_transform, opacity_transform;\n"
    "uniform vec3 ambient;\n"
    "uniform int directional_count, point_count;\n"
    "uniform vec3 directional_towards[8], directional_color[8], point_position[8], point_color[8];\n"
    "uniform vec3 camera_position;\n"
    "out vec4 out_color;\n"
    "// OBJ's v is up; the texture's first row is its top one.\n"
    "vec2 mapped(vec4 transform) {\n"
    "  vec2 st = uv * transform.xy + transform.zw;\n"
    "  return vec2(st.x, 1.0 - st.y);\n"
    "}\n"
    "vec3 reflected(vec3 n, vec3 view, vec3 towards, vec3 albedo, bool shiny) {\n"
    "  float nl = dot(n, towards);\n"
    "  if (nl <= 0.0) return vec3(0.0);\n"
    "  vec3 r = albedo * nl;\n"
    "  if (shiny) {\n"
    "    vec3 h = towards + view;\n"
    "    h = length(h) > 0.0 ? normalize(h) : n;\n"
    "    r += specular * pow(max(0.0, dot(n, h)), shininess);\n"
    "  }\n"
    "  return r;\n"
    "}\n"
    "void main() {\n"
    "  vec4 base = vec4(diffuse * vertex_color, opacity);\n"
    "  if (textured) base *= texture(diffuse_map, mapped(diffuse_transform));\n"
    "  if (opacity_textured) base.a *= texture(opacity_map, mapped(opacity_transform)).r;\n"
    "  if (alpha_use == 0) {\n"
    "    base.a = 1.0;\n"
    "  } else if (alpha_use == 1) {\n"
    "    if (base.a < 0.5) discard;\n"
    "    base.a = 1.0;\n"
    "  } else if (base.a < 1.0 / 255.0) {\n"
    "    discard;\n"
    "  }\n"
    "  vec3 rgb = ambient * base.rgb + emissive;\n"
    "  if (directional_count + point_count > 0) {\n"
    "    vec3 n;\n"
    "    if (length(world_normal) > 0.0) {\n"
    "      n = normalize(world_normal);\n"
    "      if (!gl_FrontFacing) n = -n;\n"
    "    } else {\n"
    "      // The face's normal towards the viewer, as ARScene's flat normal flipped for back faces.\n"
    "      n = normalize(cross(dFdx(world), dFdy(world)));\n"
    "    }\n"
    "    bool shiny = specular != vec3(0.0);\n"
    "    vec3 view = n;\n"
    "    vec3 d = camera_position - world;\n"
    "    if (shiny && length(d) > 0.0) view = normalize(d);\n"
    "    for (int i = 0; i < directional_count; ++i)\n"
    "      rgb += reflected(n, view, directional_towards[i], base.rgb, shiny) * directional_color[i];\n"
    "    for (int i = 0; i < point_count; ++i) {\n"
    "      vec3 p = point_position[i] - world;\n"
    "      float d2 = dot(p, p);\n"
    "      if (d2 > 0.0) rgb += reflected(n, view, p / sqrt(d2), base.rgb, shiny) * point_color[i] / d2;\n"
    "    }\n"
    "  }\n"
    "  out_color = vec4(rgb, base.a);\n"
    "}\n";

// The backdrop: a camera frame's texels copied one to one (rows top to bottom).
static const char *backdrop_vertex_source =
    "#version 300 es\n"
    "void main() {\n"
    "  vec2 corner = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));\n"
    "  gl_Position = vec4(corner, 0.0, 1.0);\n"
    "}\n";

static const char *backdrop_fragment_source =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform highp sampler2D frame;\n"
    "out vec4 out_color;\n"
    "void main() {\n"
    "  ivec2 size = textureSize(frame, 0);\n"
    "  ivec2 p = ivec2(gl_FragCoord.xy);\n"
    "  out_color = texelFetch(frame, ivec2(p.x, size.y - 1 - p.y), 0);\n"
    "}\n";

static void make_current(mesa_lit_oracle *m) {
  eglMakeCurrent(m->display, EGL_NO_SURFACE, EGL_NO_SURFACE, m->context);
}

mesa_lit_oracle *mesa_lit_oracle_create(int width, int height) {
  mesa_lit_oracle *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->width = width;
  m->height = height;
  if (!mesa_egl_open(&m->display, &m->context)) goto fail;
  const char *extensions = (const char *)glGetString(GL_EXTENSIONS);
  if (!extensions || !strstr(extensions, "GL_OES_texture_float_linear")) goto fail;
  const char *attributes[] = {"clip", "position", "normal", "texcoord", "color"};
  m->lit = mesa_egl_program(lit_vertex_source, lit_fragment_source, attributes, 5);
  m->backdrop = mesa_egl_program(backdrop_vertex_source, backdrop_fragment_source, NULL, 0);
  if (!m->lit || !m->backdrop) goto fail;
  glGenBuffers(5, m->buffers);
  m->framebuffer = mesa_egl_framebuffer(width, height, 0, GL_SRGB8_ALPHA8, GL_DEPTH_COMPONENT24);
  if (!m->framebuffer) goto fail;
  return m;
fail:
  mesa_lit_oracle_destroy(m);
  return NULL;
}

void mesa_lit_oracle_destroy(mesa_lit_oracle *m) {
  if (!m) return;
  mesa_egl_close(m->display, m->context);
  free(m);
}

unsigned mesa_lit_oracle_texture(mesa_lit_oracle *m, int level_count, const int *widths,
                                 const int *heights, const float *const *levels, int clamp) {
  make_current(m);
  GLuint name = 0;
  glGenTextures(1, &name);
  glBindTexture(GL_TEXTURE_2D, name);
  for (int i = 0; i < level_count; ++i)
    glTexImage2D(GL_TEXTURE_2D, i, GL_RGBA32F, widths[i], heights[i], 0, GL_RGBA, GL_FLOAT, levels[i]);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, level_count - 1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  GLint wrap = clamp ? GL_CLAMP_TO_EDGE : GL_REPEAT;
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
  return glGetError() == GL_NO_ERROR ? name : 0;
}

static GLint uniform(GLuint program, const char *name) { return glGetUniformLocation(program, name); }

void mesa_lit_oracle_begin(mesa_lit_oracle *m, const float *clear_linear,
                           const float *background_linear, const mesa_lit_lights *lights) {
  make_current(m);
  glBindFramebuffer(GL_FRAMEBUFFER, m->framebuffer);
  glViewport(0, 0, m->width, m->height);
  glDisable(GL_DITHER);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  glClearColor(clear_linear[0], clear_linear[1], clear_linear[2], clear_linear[3]);
  glClearDepthf(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (background_linear) {
    if (!m->background) glGenTextures(1, &m->background);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m->background);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, m->width, m->height, 0, GL_RGBA, GL_FLOAT, background_linear);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glUseProgram(m->backdrop);
    glUniform1i(uniform(m->backdrop, "frame"), 0);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glDrawArrays(GL_TRIANGLES, 0, 3);  // one triangle over the whole viewport
  }
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  GLuint p = m->lit;
  glUseProgram(p);
  glUniform3fv(uniform(p, "ambient"), 1, lights->ambient);
  glUniform1i(uniform(p, "directional_count"), lights->directional_count);
  glUniform1i(uniform(p, "point_count"), lights->point_count);
  int directional = lights->directional_count;
  if (directional > 0) {
    glUniform3fv(uniform(p, "directional_towards"), directional, &lights->directional_towards[0][0]);
    glUniform3fv(uniform(p, "directional_color"), directional, &lights->directional_color[0][0]);
  }
  if (lights->point_count > 0) {
    glUniform3fv(uniform(p, "point_position"), lights->point_count, &lights->point_position[0][0]);
    glUniform3fv(uniform(p, "point_color"), lights->point_count, &lights->point_color[0][0]);
  }
  glUniform3fv(uniform(p, "camera_position"), 1, lights->camera_position);
  glUniform1i(uniform(p, "diffuse_map"), 0);
  glUniform1i(uniform(p, "opacity_map"), 1);
}

static void attribute(GLuint buffer, GLuint location, int components, const float *data, size_t vertices) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(vertices * components * sizeof(float)), data, GL_STREAM_DRAW);
  glVertexAttribPointer(location, components, GL_FLOAT, GL_FALSE, 0, 0);
  glEnableVertexAttribArray(location);
}

void mesa_lit_oracle_draw(mesa_lit_oracle *m, const mesa_lit_material *material, const float *clip,
                          const float *positions, const float *normals, const float *texcoords,
                          const float *colors, size_t triangle_count) {
  make_current(m);
  GLuint p = m->lit;
  glUniform3fv(uniform(p, "diffuse"), 1, material->diffuse);
  glUniform3fv(uniform(p, "specular"), 1, material->specular);
  glUniform3fv(uniform(p, "emissive"), 1, material->emissive);
  glUniform1f(uniform(p, "shininess"), material->shininess);
  glUniform1f(uniform(p, "opacity"), material->opacity);
  glUniform1i(uniform(p, "alpha_use"), material->alpha_use);
  glUniform1i(uniform(p, "textured"), material->texture != 0);
  glUniform1i(uniform(p, "opacity_textured"), material->opacity_texture != 0);
  glUniform4f(uniform(p, "diffuse_transform"), material->texture_scale[0], material->texture_scale[1],
              material->texture_offset[0], material->texture_offset[1]);
  glUniform4f(uniform(p, "opacity_transform"), material->opacity_scale[0], material->opacity_scale[1],
              material->opacity_offset[0], material->opacity_offset[1]);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, material->texture);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, material->opacity_texture);
  if (material->cull_back_faces) {
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
  } else {
    glDisable(GL_CULL_FACE);
  }
  if (material->alpha_use == MESA_LIT_BLENDED) {
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
  } else {
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
  }
  size_t vertices = triangle_count * 3;
  attribute(m->buffers[0], 0, 4, clip, vertices);
  attribute(m->buffers[1], 1, 3, positions, vertices);
  attribute(m->buffers[2], 2, 3, normals, vertices);
  attribute(m->buffers[3], 3, 2, texcoords, vertices);
  attribute(m->buffers[4], 4, 3, colors, vertices);
  glDrawArrays(GL_TRIANGLES, 0, (GLsizei)vertices);
}

void mesa_lit_oracle_read(mesa_lit_oracle *m, uint8_t *rgba) {
  make_current(m);
  glFinish();
  glBindFramebuffer(GL_READ_FRAMEBUFFER, m->framebuffer);
  mesa_egl_read_top_down(m->width, m->height, rgba);
}
