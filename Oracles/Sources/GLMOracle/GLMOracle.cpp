// Thin adapters from the C ABI in GLMOracle.h to GLM. Every function copies its inputs into GLM
// types with glm::make_*, calls exactly one GLM function, and copies the result out.
#include "GLMOracle.h"

#include <cstring>
#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace {
template <typename Q> Q quat_in(const typename Q::value_type *q) {
  return Q(q[3], q[0], q[1], q[2]);  // GLM's constructor takes w first
}
template <typename Q> void quat_out(const Q &q, typename Q::value_type *out) {
  out[0] = q.x; out[1] = q.y; out[2] = q.z; out[3] = q.w;
}
template <typename M> void mat_out(const M &m, typename M::value_type *out) {
  std::memcpy(out, glm::value_ptr(m), sizeof(M));
}
}  // namespace

extern "C" {

void glm_oracle_mat4_mul_d(const double *a, const double *b, double *out) {
  mat_out(glm::make_mat4(a) * glm::make_mat4(b), out);
}
void glm_oracle_mat4_inverse_d(const double *m, double *out) {
  mat_out(glm::inverse(glm::make_mat4(m)), out);
}
double glm_oracle_mat4_determinant_d(const double *m) { return glm::determinant(glm::make_mat4(m)); }
void glm_oracle_perspective_d(double fovy, double aspect, double near, double far, double *out) {
  mat_out(glm::perspective(fovy, aspect, near, far), out);
}
void glm_oracle_ortho_d(double l, double r, double b, double t, double n, double f, double *out) {
  mat_out(glm::ortho(l, r, b, t, n, f), out);
}
void glm_oracle_look_at_d(const double *eye, const double *center, const double *up, double *out) {
  mat_out(glm::lookAt(glm::make_vec3(eye), glm::make_vec3(center), glm::make_vec3(up)), out);
}
void glm_oracle_quat_from_mat3_d(const double *m3, double *q) {
  quat_out(glm::quat_cast(glm::make_mat3(m3)), q);
}
void glm_oracle_mat3_from_quat_d(const double *q, double *m3) {
  mat_out(glm::mat3_cast(quat_in<glm::dquat>(q)), m3);
}
void glm_oracle_quat_slerp_d(const double *a, const double *b, double t, double *out) {
  quat_out(glm::slerp(quat_in<glm::dquat>(a), quat_in<glm::dquat>(b), t), out);
}
void glm_oracle_quat_look_at_d(const double *direction, const double *up, double *q) {
  quat_out(glm::quatLookAtRH(glm::make_vec3(direction), glm::make_vec3(up)), q);
}
void glm_oracle_angle_axis_d(double angle, const double *axis, double *q) {
  quat_out(glm::angleAxis(angle, glm::make_vec3(axis)), q);
}
void glm_oracle_quat_rotate_d(const double *q, const double *v, double *out) {
  glm::dvec3 r = quat_in<glm::dquat>(q) * glm::make_vec3(v);
  out[0] = r.x; out[1] = r.y; out[2] = r.z;
}
void glm_oracle_project_d(const double *object, const double *model, const double *projection,
                          const double *viewport, double *out) {
  glm::dvec3 w = glm::project(glm::make_vec3(object), glm::make_mat4(model),
                              glm::make_mat4(projection), glm::make_vec4(viewport));
  out[0] = w.x; out[1] = w.y; out[2] = w.z;
}

void glm_oracle_mat4_mul_f(const float *a, const float *b, float *out) {
  mat_out(glm::make_mat4(a) * glm::make_mat4(b), out);
}
void glm_oracle_mat4_inverse_f(const float *m, float *out) {
  mat_out(glm::inverse(glm::make_mat4(m)), out);
}

void glm_bench_transform_points_f(const float *m, const float *points, float *out, size_t n) {
  const glm::mat4 mat = glm::make_mat4(m);
  const glm::vec4 *in = reinterpret_cast<const glm::vec4 *>(points);
  glm::vec4 *o = reinterpret_cast<glm::vec4 *>(out);
  for (size_t i = 0; i < n; ++i) o[i] = mat * in[i];
}
void glm_bench_slerp_f(const float *a, const float *b, const float *t, float *out, size_t n) {
  for (size_t i = 0; i < n; ++i)
    quat_out(glm::slerp(quat_in<glm::quat>(a + 4 * i), quat_in<glm::quat>(b + 4 * i), t[i]),
             out + 4 * i);
}
void glm_bench_inverse_f(const float *m, float *out, size_t n) {
  const glm::mat4 *in = reinterpret_cast<const glm::mat4 *>(m);
  glm::mat4 *o = reinterpret_cast<glm::mat4 *>(out);
  for (size_t i = 0; i < n; ++i) o[i] = glm::inverse(in[i]);
}
void glm_bench_project_f(const float *points, const float *view, const float *projection,
                         const float *viewport, float *out, size_t n) {
  const glm::mat4 v = glm::make_mat4(view), p = glm::make_mat4(projection);
  const glm::vec4 vp = glm::make_vec4(viewport);
  const glm::vec3 *in = reinterpret_cast<const glm::vec3 *>(points);
  glm::vec3 *o = reinterpret_cast<glm::vec3 *>(out);
  for (size_t i = 0; i < n; ++i) o[i] = glm::project(in[i], v, p, vp);
}
}
