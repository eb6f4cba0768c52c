// tinyobjloader 2.0.0rc10 (Debian libtinyobjloader-dev, header compiled here at -O2) behind a C
// ABI: the peer Tools/bench measures OBJ parsing against. Not part of any ARScene product.
#ifndef ARSCENE_TINYOBJ_ORACLE_H
#define ARSCENE_TINYOBJ_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Parses OBJ text from memory with tinyobj::LoadObj (materials not loaded). Returns 1 on
/// success and the counts of positions, texture coordinates, normals and faces (triangles when
/// `triangulate` is set).
int tinyobj_oracle_parse(const char *text, size_t count, int triangulate, size_t *positions,
                         size_t *texcoords, size_t *normals, size_t *faces);

#ifdef __cplusplus
}
#endif
#endif
