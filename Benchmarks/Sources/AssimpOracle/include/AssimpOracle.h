// The Open Asset Import Library (Debian libassimp-dev) behind a small C ABI: the peer Tools/bench
// measures glTF/GLB loading against. Not part of any ARScene product.
#ifndef ARSCENE_ASSIMP_ORACLE_H
#define ARSCENE_ASSIMP_ORACLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Imports a model from memory with aiImportFileFromMemory (`hint` the format's extension, such
/// as "glb"), with no post-processing: what a loader needs to read the file into meshes. Returns
/// 1 on success and the vertices and faces of all its meshes, then releases the scene.
int assimp_oracle_import(const unsigned char *bytes, size_t count, const char *hint, size_t *vertices,
                         size_t *faces);

#ifdef __cplusplus
}
#endif
#endif
