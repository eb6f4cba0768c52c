#define TINYOBJLOADER_IMPLEMENTATION
#include "TinyOBJOracle.h"

#include <sstream>
#include <streambuf>
#include <string>
#include <tiny_obj_loader.h>

namespace {
// An istream over caller-owned memory, so tinyobjloader reads the same bytes we parse without
// a copy into a std::string.
struct MemoryBuffer : std::streambuf {
  MemoryBuffer(const char *text, size_t count) {
    char *p = const_cast<char *>(text);
    setg(p, p, p + count);
  }
};
}  // namespace

extern "C" int tinyobj_oracle_parse(const char *text, size_t count, int triangulate,
                                    size_t *positions, size_t *texcoords, size_t *normals,
                                    size_t *faces) {
  MemoryBuffer buffer(text, count);
  std::istream stream(&buffer);
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warning, error;
  bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warning, &error, &stream, nullptr,
                             triangulate != 0);
  size_t f = 0;
  for (const auto &shape : shapes) f += shape.mesh.num_face_vertices.size();
  *positions = attrib.vertices.size() / 3;
  *texcoords = attrib.texcoords.size() / 2;
  *normals = attrib.normals.size() / 3;
  *faces = f;
  return ok ? 1 : 0;
}
