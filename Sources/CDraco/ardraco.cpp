#include "ardraco.h"

#include <cstring>
#include <memory>
#include <string>

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

struct ardraco_mesh {
  std::unique_ptr<draco::Mesh> mesh;
};

extern "C" ardraco_mesh *ardraco_decode(const unsigned char *data, size_t size, char *error, size_t error_size) {
  draco::DecoderBuffer buffer;
  buffer.Init(reinterpret_cast<const char *>(data), size);
  draco::Decoder decoder;
  auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
  if (!decoded.ok()) {
    std::string message = decoded.status().error_msg_string();
    if (error && error_size > 0) {
      std::strncpy(error, message.c_str(), error_size - 1);
      error[error_size - 1] = 0;
    }
    return nullptr;
  }
  auto result = new ardraco_mesh;
  result->mesh = std::move(decoded).value();
  return result;
}

extern "C" size_t ardraco_points(const ardraco_mesh *mesh) { return mesh->mesh->num_points(); }

extern "C" size_t ardraco_faces(const ardraco_mesh *mesh) { return mesh->mesh->num_faces(); }

extern "C" void ardraco_indices(const ardraco_mesh *mesh, uint32_t *out) {
  const draco::Mesh &m = *mesh->mesh;
  for (draco::FaceIndex f(0); f < m.num_faces(); ++f) {
    const auto &face = m.face(f);
    for (int k = 0; k < 3; ++k) out[3 * f.value() + k] = face[k].value();
  }
}

extern "C" int ardraco_attribute(const ardraco_mesh *mesh, int id, int components, float *out) {
  const draco::Mesh &m = *mesh->mesh;
  const draco::PointAttribute *attribute = m.GetAttributeByUniqueId(static_cast<uint32_t>(id));
  if (!attribute) return -1;
  if (attribute->num_components() < components) return -2;
  // Floats already (positions and normals decoded from their quantization): copied as they
  // are, where ConvertValue converts each component through a switch on the type.
  if (attribute->data_type() == draco::DT_FLOAT32 && attribute->num_components() == components) {
    const size_t row = sizeof(float) * static_cast<size_t>(components);
    for (draco::PointIndex p(0); p < m.num_points(); ++p) {
      std::memcpy(out + static_cast<size_t>(p.value()) * components, attribute->GetAddress(attribute->mapped_index(p)),
                  row);
    }
    return 0;
  }
  for (draco::PointIndex p(0); p < m.num_points(); ++p) {
    attribute->ConvertValue<float>(attribute->mapped_index(p), static_cast<int8_t>(components),
                                   out + static_cast<size_t>(p.value()) * components);
  }
  return 0;
}

extern "C" void ardraco_free(ardraco_mesh *mesh) { delete mesh; }
