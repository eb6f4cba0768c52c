#include "AssimpOracle.h"

#include <assimp/cimport.h>
#include <assimp/scene.h>

int assimp_oracle_import(const unsigned char *bytes, size_t count, const char *hint, size_t *vertices,
                         size_t *faces) {
  const struct aiScene *scene = aiImportFileFromMemory((const char *)bytes, (unsigned int)count, 0, hint);
  if (!scene) return 0;
  size_t v = 0, f = 0;
  for (unsigned int m = 0; m < scene->mNumMeshes; m++) {
    v += scene->mMeshes[m]->mNumVertices;
    f += scene->mMeshes[m]->mNumFaces;
  }
  *vertices = v;
  *faces = f;
  aiReleaseImport(scene);
  return 1;
}
