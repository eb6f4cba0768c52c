// GLM 0.9.9 (Debian libglm-dev) behind a plain C ABI: the reference the ARMath tests compare
// against, and the peer Tools/bench measures. Not part of any ARScene product.
//
// Matrices are 16 (or 9) numbers, column-major, as GLM stores them. Quaternions are x, y, z, w.
#ifndef ARSCENE_GLM_ORACLE_H
#define ARSCENE_GLM_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Double precision reference operations (glm::dmat4, glm::dquat)
void glm_oracle_mat4_mul_d(const double *a, const double *b, double *out);
void glm_oracle_mat4_inverse_d(const double *m, double *out);
double glm_oracle_mat4_determinant_d(const double *m);
void glm_oracle_perspective_d(double fovy, double aspect, double near, double far, double *out);
void glm_oracle_ortho_d(double left, double right, double bottom, double top, double near,
                        double far, double *out);
void glm_oracle_look_at_d(const double *eye, const double *center, const double *up, double *out);
void glm_oracle_quat_from_mat3_d(const double *m3, double *q_xyzw);
void glm_oracle_mat3_from_quat_d(const double *q_xyzw, double *m3);
void glm_oracle_quat_slerp_d(const double *a_xyzw, const double *b_xyzw, double t, double *out);
void glm_oracle_quat_look_at_d(const double *direction, const double *up, double *q_xyzw);
void glm_oracle_angle_axis_d(double angle, const double *axis, double *q_xyzw);
void glm_oracle_quat_rotate_d(const double *q_xyzw, const double *v, double *out);
void glm_oracle_project_d(const double *object, const double *model, const double *projection,
                          const double *viewport, double *out);

// MARK: Single precision (glm::mat4, glm::quat), as the renderer uses
void glm_oracle_mat4_mul_f(const float *a, const float *b, float *out);
void glm_oracle_mat4_inverse_f(const float *m, float *out);

// MARK: Benchmark loops, compiled at -O2 (GLM's default build, no forced intrinsics)
/// out[i] = m * points[i], points and out as n vec4s.
void glm_bench_transform_points_f(const float *m, const float *points, float *out, size_t n);
/// out[i] = slerp(a[i], b[i], t[i]), quaternions as n x,y,z,w quadruples.
void glm_bench_slerp_f(const float *a, const float *b, const float *t, float *out, size_t n);
/// out[i] = inverse(m[i]), n mat4s.
void glm_bench_inverse_f(const float *m, float *out, size_t n);
/// out[i] = glm::project(points[i], view, projection, viewport), points and out as n vec3s.
void glm_bench_project_f(const float *points, const float *view, const float *projection,
                         const float *viewport, float *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
