// Embree 3.13 (Debian libembree-dev) behind a small C API: the ray-casting benchmark peer.
// Not part of any ARScene product.
#ifndef ARSCENE_EMBREE_ORACLE_H
#define ARSCENE_EMBREE_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Builds a committed scene of one triangle mesh (float xyz vertices, three indices a triangle)
/// on a device of its own (Embree builds with its TBB threads). Returns an opaque handle.
void *embree_oracle_build(const float *vertices, size_t vertex_count, const unsigned *indices,
                          size_t triangle_count);

/// Closest hits with rtcIntersect1 for rays [begin, end) given as (ox, oy, oz, dx, dy, dz)
/// floats; writes t (INFINITY for a miss) and the triangle index (-1 for a miss). Safe to call
/// from several threads on disjoint ranges.
void embree_oracle_intersect(void *scene, const float *rays, size_t begin, size_t end, float *t, int *triangle);

/// Releases the scene and its device.
void embree_oracle_release(void *scene);

#ifdef __cplusplus
}
#endif
#endif
