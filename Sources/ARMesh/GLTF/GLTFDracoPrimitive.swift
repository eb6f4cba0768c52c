import Dispatch

/// A `KHR_draco_mesh_compression` primitive decoded by the registered Draco decoder: its
/// attributes' values and triangles, where the primitive's accessors then only describe them
/// (type, count).
struct GLTFDracoPrimitive {
  let mesh: GLTFCompression.DracoMesh

  /// The decoded primitive at `here` (`/meshes/2/primitives/0`), or nil when it is not
  /// Draco-compressed.
  init?(_ primitive: GLTFDocument.Primitive, accessors: GLTFAccessors, at here: String) throws(GLTFError) {
    guard let draco = primitive.extensions?.draco else { return nil }
    if let decoded = accessors.takeDecodedDraco(at: here) {
      mesh = decoded
    } else {
      mesh = try Self.decode(draco, of: primitive, accessors: accessors, at: here)
    }
  }

  /// Decodes `primitives` (each with its pointer, as ``init(_:accessors:at:)`` takes it, and
  /// the nodes that draw it) on every core, each kept in `accessors` for the build to take:
  /// decoding is most of a Draco file's load, and its primitives are independent. One that
  /// fails is left for the build, which decodes it again in order and throws its error there.
  static func decodeAhead(
    _ primitives: [(primitive: GLTFDocument.Primitive, pointer: String, uses: Int)], accessors: GLTFAccessors
  ) {
    guard primitives.count > 1, GLTFCompression.draco != nil else { return }
    DispatchQueue.concurrentPerform(iterations: primitives.count) { k in
      let (primitive, pointer, uses) = primitives[k]
      guard let draco = primitive.extensions?.draco,
        let mesh = try? decode(draco, of: primitive, accessors: accessors, at: pointer)
      else { return }
      accessors.keep(draco: mesh, at: pointer, uses: uses)
    }
  }

  /// The Draco mesh `draco` (`primitive`'s extension) holds, decoded by the registered decoder.
  private static func decode(
    _ draco: GLTFDocument.PrimitiveExtensions.Draco, of primitive: GLTFDocument.Primitive,
    accessors: GLTFAccessors, at here: String
  ) throws(GLTFError) -> GLTFCompression.DracoMesh {
    let container = accessors.container
    let pointer = here + "/extensions/KHR_draco_mesh_compression"
    guard let decoder = GLTFCompression.draco else {
      throw GLTFError(
        path: container.path, pointer: pointer, reason: "Draco-compressed, and no Draco decoder is registered"
      )
    }
    let bytes = try container.viewBytes(draco.bufferView, at: pointer + "/bufferView")
    var wanted: [String: (id: Int, components: Int)] = [:]
    for (name, id) in draco.attributes {
      guard let index = primitive.attributes[name], let accessor = container.document.accessors?[safe: index],
        let components = GLTFAccessors.components(accessor.type)
      else { continue }
      wanted[name] = (id, components)
    }
    do { return try decoder(GLTFCompression.DracoRequest(source: bytes, attributes: wanted)) } catch {
      throw GLTFError(path: container.path, pointer: pointer, reason: "\(error)")
    }
  }

  /// Attribute `name`'s values and components, checked against its accessor's type; nil when
  /// the Draco mesh does not hold it.
  func attribute(_ name: String, index: Int, types: Set<String>, accessors: GLTFAccessors, at pointer: String)
    throws(GLTFError) -> (values: [Double], components: Int)?
  {
    guard let values = mesh.attributes[name] else { return nil }
    let container = accessors.container
    guard let accessor = container.document.accessors?[safe: index], types.contains(accessor.type),
      let components = GLTFAccessors.components(accessor.type), values.count == mesh.points * components
    else {
      throw GLTFError(
        path: container.path, pointer: pointer, reason: "does not match the Draco mesh's attribute")
    }
    guard values.allSatisfy(\.isFinite) else {
      throw GLTFError(
        path: container.path, pointer: pointer, reason: "the Draco mesh holds a number that is not finite")
    }
    return (values, components)
  }

  /// Where `primitive`'s accessors (at `here`) declare other counts than the Draco mesh
  /// decodes, one note each: the extension requires them equal, and the decoded mesh is what is
  /// drawn, so a file that breaks the rule is read with a word, never silently.
  func countMismatches(_ primitive: GLTFDocument.Primitive, accessors: GLTFAccessors, at here: String)
    -> [String]
  {
    let declared = accessors.container.document.accessors ?? []
    var notes: [String] = []
    for (name, index) in primitive.attributes.sorted(by: { $0.key < $1.key })
    where mesh.attributes[name] != nil {
      guard let count = declared[safe: index]?.count, count != mesh.points else { continue }
      notes.append(
        "\(here)/attributes/\(name): the accessor's count is \(count), the Draco mesh decodes \(mesh.points) "
          + "points (KHR_draco_mesh_compression requires them equal): the decoded points are drawn")
    }
    if let index = primitive.indices, let count = declared[safe: index]?.count, count != mesh.indices.count {
      notes.append(
        "\(here)/indices: the accessor's count is \(count), the Draco mesh decodes \(mesh.indices.count) "
          + "indices (KHR_draco_mesh_compression requires them equal): the decoded triangles are drawn")
    }
    return notes
  }

  /// The triangles' indices, each below the mesh's points.
  func indices(at pointer: String, path: String) throws(GLTFError) -> [UInt32] {
    guard mesh.indices.allSatisfy({ Int($0) < mesh.points }) else {
      throw GLTFError(
        path: path, pointer: pointer, reason: "the Draco mesh indexes past its \(mesh.points) points")
    }
    return mesh.indices
  }
}
