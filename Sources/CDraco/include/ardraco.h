// A C face for Debian's libdraco (C++), which Swift calls to decode glTF's
// KHR_draco_mesh_compression: a mesh's triangles and its attributes by their Draco ids.
#ifndef ARDRACO_H
#define ARDRACO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ardraco_mesh ardraco_mesh;

/// Decodes a Draco mesh; NULL (with a message in `error`) when the bytes are no valid mesh.
ardraco_mesh *ardraco_decode(const unsigned char *data, size_t size, char *error, size_t error_size);
/// Points (vertices) and triangles of the decoded mesh.
size_t ardraco_points(const ardraco_mesh *mesh);
size_t ardraco_faces(const ardraco_mesh *mesh);
/// Writes 3 × faces vertex indices.
void ardraco_indices(const ardraco_mesh *mesh, uint32_t *out);
/// Writes points × components values of the attribute with Draco unique id `id`, converted
/// to float (normalized integers as the encoder marked them); 0 on success, -1 when there is
/// no such attribute, -2 when it has fewer components.
int ardraco_attribute(const ardraco_mesh *mesh, int id, int components, float *out);
void ardraco_free(ardraco_mesh *mesh);

#ifdef __cplusplus
}
#endif

#endif
