#include "EmbreeOracle.h"

#include <embree3/rtcore.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  RTCDevice device;
  RTCScene scene;
} Oracle;

void *embree_oracle_build(const float *vertices, size_t vertex_count, const unsigned *indices,
                          size_t triangle_count) {
  Oracle *o = malloc(sizeof(Oracle));
  o->device = rtcNewDevice(NULL);
  o->scene = rtcNewScene(o->device);
  RTCGeometry geometry = rtcNewGeometry(o->device, RTC_GEOMETRY_TYPE_TRIANGLE);
  float *v = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                     vertex_count);
  memcpy(v, vertices, vertex_count * 3 * sizeof(float));
  unsigned *i = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned),
                                        triangle_count);
  memcpy(i, indices, triangle_count * 3 * sizeof(unsigned));
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(o->scene, geometry);
  rtcReleaseGeometry(geometry);
  rtcCommitScene(o->scene);
  return o;
}

void embree_oracle_intersect(void *scene, const float *rays, size_t begin, size_t end, float *t, int *triangle) {
  Oracle *o = scene;
  struct RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  for (size_t k = begin; k < end; ++k) {
    struct RTCRayHit hit;
    const float *r = rays + 6 * k;
    hit.ray.org_x = r[0];
    hit.ray.org_y = r[1];
    hit.ray.org_z = r[2];
    hit.ray.dir_x = r[3];
    hit.ray.dir_y = r[4];
    hit.ray.dir_z = r[5];
    hit.ray.tnear = 0;
    hit.ray.tfar = INFINITY;
    hit.ray.mask = (unsigned)-1;
    hit.ray.flags = 0;
    hit.ray.time = 0;
    hit.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    hit.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(o->scene, &context, &hit);
    if (hit.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
      t[k] = INFINITY;
      triangle[k] = -1;
    } else {
      t[k] = hit.ray.tfar;
      triangle[k] = (int)hit.hit.primID;
    }
  }
}

void embree_oracle_release(void *scene) {
  Oracle *o = scene;
  rtcReleaseScene(o->scene);
  rtcReleaseDevice(o->device);
  free(o);
}
