import ARMath

/// Flattens a glTF document's default scene into one mesh: each node's transform (a matrix, or
/// translation × rotation × scale) applied down the tree, each mesh instance's primitives
/// triangulated into submeshes by material. Vertex attributes follow the specification: flat
/// normals where a primitive has none, texture coordinates with their origin at the image's top
/// left turned to ARScene's (v up), vertex colours' RGB.
struct GLTFMeshBuilder {
  let container: GLTFContainer
  let accessors: GLTFAccessors
  private(set) var namedNodes: [NamedNode] = []
  private(set) var embeddedImages: [String: [UInt8]] = [:]
  private(set) var warnings: [String] = []
  var geometry = GLTFGeometry()
  private var materialSlots: [Int: Int] = [:]
  private var visits = 0
  /// The animation's pose (with a time), which also skins skinned meshes.
  private let pose: GLTFAnimationPose?
  /// Each visited node's transform in the asset's frame (the first, for a node drawn twice).
  private var globals: [Int: Matrix4<Double>] = [:]
  /// Mesh instances in visiting order: the node and its transform.
  private var instances: [(node: Int, world: Matrix4<Double>)] = []
  /// The most node visits a document may cause (a node listed under several parents is drawn
  /// under each; a file can make that exponential).
  static let visitLimit = 100_000
  /// The deepest node tree read.
  static let depthLimit = 1_000

  /// A builder of `container`'s default scene, posed as its first animation is at `time`
  /// seconds (nil: the static scene, skins unapplied).
  init(container: GLTFContainer, time: Double? = nil) throws(GLTFError) {
    self.container = container
    let accessors = GLTFAccessors(container: container)
    self.accessors = accessors
    if let time {
      pose = try GLTFAnimationPose(container, accessors: accessors, time: time)
    } else {
      pose = nil
    }
  }

  /// The most vertices (and triangles) a model may have once its meshes are instanced.
  static let vertexLimit = 50_000_000

  private func fail(_ pointer: String, _ reason: String) -> GLTFError {
    GLTFError(path: container.path, pointer: pointer, reason: reason)
  }

  mutating func build() throws(GLTFError) {
    let document = container.document
    let nodes = document.nodes ?? []
    if let scenes = document.scenes, !scenes.isEmpty {
      let s = document.scene ?? 0
      guard scenes.indices.contains(s) else { throw fail("/scene", "scene \(s) does not exist") }
      for (k, root) in (scenes[s].nodes ?? []).enumerated() {
        try visit(root, parent: .identity, ancestors: [], pointer: "/scenes/\(s)/nodes/\(k)")
      }
    } else {
      // No scenes: every node that is no other node's child, as viewers show such files.
      let children = Set(nodes.flatMap { $0.children ?? [] })
      for root in nodes.indices where !children.contains(root) {
        try visit(root, parent: .identity, ancestors: [], pointer: "/nodes/\(root)")
      }
    }
    // Decoded ahead only when the vertices the accessors declare fit the model's limit: a
    // scene past it stops at the limit, below, before every mesh is decoded.
    let draco = drawnDracoPrimitives()
    let declared = draco.reduce(0) { sum, entry in
      let count = entry.primitive.attributes["POSITION"].flatMap { document.accessors?[safe: $0]?.count } ?? 0
      // Each term at most the limit times the visits, and the sum held just past the limit.
      return Swift.min(
        sum &+ Swift.max(0, Swift.min(count, Self.vertexLimit)) &* entry.uses, Self.vertexLimit + 1)
    }
    if declared <= Self.vertexLimit { GLTFDracoPrimitive.decodeAhead(draco, accessors: accessors) }
    for (node, world) in instances {
      // Instancing multiplies a mesh: a small file can ask for more than memory (or 32-bit
      // indices) holds. Stop at a size no device draws, naming the node.
      guard geometry.vertexCount <= Self.vertexLimit, geometry.triangleCount <= Self.vertexLimit
      else {
        throw fail(
          "/nodes/\(node)",
          "the scene passes \(Self.vertexLimit) vertices or triangles once its meshes are instanced")
      }
      try addMesh(nodes[node].mesh!, node: node, world: world, at: "/nodes/\(node)/mesh")
    }
  }

  /// The Draco-compressed triangle primitives of the meshes the scene draws, each once, with
  /// its pointer and the nodes that draw it: what ``GLTFDracoPrimitive/decodeAhead(_:accessors:)``
  /// decodes.
  private func drawnDracoPrimitives() -> [(primitive: GLTFDocument.Primitive, pointer: String, uses: Int)] {
    let meshes = container.document.meshes ?? [], nodes = container.document.nodes ?? []
    var uses: [Int: Int] = [:], order: [Int] = []
    for (node, _) in instances {
      guard let m = nodes[node].mesh, meshes.indices.contains(m) else { continue }
      if uses[m] == nil { order.append(m) }
      uses[m, default: 0] += 1
    }
    return order.flatMap { m in
      meshes[m].primitives.enumerated().compactMap { p, primitive in
        primitive.extensions?.draco != nil && (4...6).contains(primitive.mode ?? 4)
          ? (primitive, "/meshes/\(m)/primitives/\(p)", uses[m]!) : nil
      }
    }
  }

  private mutating func visit(_ index: Int, parent: Matrix4<Double>, ancestors: [Int], pointer: String)
    throws(GLTFError)
  {
    let nodes = container.document.nodes ?? []
    guard nodes.indices.contains(index) else {
      throw fail(pointer, "node \(index) does not exist (\(nodes.count) nodes)")
    }
    guard !ancestors.contains(index) else {
      throw fail(pointer, "a cycle in the node graph back to node \(index)")
    }
    visits += 1
    guard visits <= Self.visitLimit, ancestors.count < Self.depthLimit else {
      throw fail(
        pointer,
        "the node graph is deeper than \(Self.depthLimit) or visits more than \(Self.visitLimit) nodes")
    }
    let node = nodes[index]
    let world = parent * (try localMatrix(node, index: index))
    if globals[index] == nil { globals[index] = world }
    if let name = node.name, !name.isEmpty {
      namedNodes.append(
        NamedNode(
          name: name, position: world.translation, hasMesh: node.mesh != nil,
          hasChildren: !(node.children ?? []).isEmpty))
    }
    if let mesh = node.mesh {
      if let instancing = node.extensions?.instancing {
        for local in try instanceMatrices(
          instancing, of: mesh, at: "/nodes/\(index)/extensions/EXT_mesh_gpu_instancing")
        {
          instances.append((index, world * local))
        }
      } else {
        instances.append((index, world))
      }
    }
    for (k, child) in (node.children ?? []).enumerated() {
      try visit(
        child, parent: world, ancestors: ancestors + [index], pointer: "/nodes/\(index)/children/\(k)")
    }
  }

  /// `EXT_mesh_gpu_instancing`'s instances, each its `TRANSLATION` × `ROTATION` × `SCALE` (any
  /// of them absent: identity) within the node; the accessors must agree on the count, and the
  /// instances times mesh `meshIndex`'s vertices stay within ``vertexLimit``.
  private func instanceMatrices(
    _ instancing: GLTFDocument.GPUInstancing, of meshIndex: Int, at pointer: String
  )
    throws(GLTFError)
    -> [Matrix4<Double>]
  {
    let known = ["TRANSLATION": "VEC3", "ROTATION": "VEC4", "SCALE": "VEC3"]
    var columns: [String: [Double]] = [:]
    var count: Int?
    for (name, accessor) in instancing.attributes.sorted(by: { $0.key < $1.key }) {
      let here = pointer + "/attributes/" + name
      guard let type = known[name] else {
        if name.hasPrefix("_") { continue }  // application-specific, such as _ID
        throw fail(here, "an instance attribute glTF does not define (TRANSLATION, ROTATION, SCALE)")
      }
      let (values, n) = try accessors.read(accessor, expect: [type], at: here)
      guard count == nil || count == values.count / n else {
        throw fail(here, "\(values.count / n) instances where another attribute has \(count!)")
      }
      count = values.count / n
      columns[name] = values
    }
    guard let count else { throw fail(pointer + "/attributes", "no TRANSLATION, ROTATION or SCALE") }
    // The mesh's vertices times the instances, from the accessors' declared counts, before any
    // copy is made: a small file must not ask for more than memory holds.
    let document = container.document
    let vertices = (document.meshes?[safe: meshIndex]?.primitives ?? []).reduce(0) { sum, primitive in
      sum + (primitive.attributes["POSITION"].flatMap { document.accessors?[safe: $0]?.count } ?? 0)
    }
    guard count <= 1 << 20, count * max(vertices, 1) <= Self.vertexLimit else {
      throw fail(
        pointer,
        "\(count) instances of \(vertices) vertices pass the \(Self.vertexLimit) vertices a model may have")
    }
    return (0..<count).map { i in
      var m = Matrix4<Double>.identity
      if let t = columns["TRANSLATION"] { m = m * .translation(SIMD3(t[3 * i], t[3 * i + 1], t[3 * i + 2])) }
      if let r = columns["ROTATION"] {
        let q = SIMD4(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3])
        let unit = (q * q).sum() > 0 ? q / (q * q).sum().squareRoot() : SIMD4(0, 0, 0, 1)
        m = m * Matrix4(linear: Quaternion(vector: unit).matrix, translation: .zero)
      }
      if let s = columns["SCALE"] { m = m * .scale(SIMD3(s[3 * i], s[3 * i + 1], s[3 * i + 2])) }
      return m
    }
  }

  /// A node's transform in its parent: its `matrix`, or translation × rotation × scale (as the
  /// animation poses them, when posed).
  private func localMatrix(_ node: GLTFDocument.Node, index: Int) throws(GLTFError) -> Matrix4<Double> {
    let here = "/nodes/\(index)"
    if let m = node.matrix {
      guard m.count == 16, m.allSatisfy(\.isFinite) else {
        throw fail(here + "/matrix", "expected 16 finite numbers (column-major)")
      }
      return Matrix4(
        SIMD4(m[0], m[1], m[2], m[3]), SIMD4(m[4], m[5], m[6], m[7]), SIMD4(m[8], m[9], m[10], m[11]),
        SIMD4(m[12], m[13], m[14], m[15]))
    }
    func vector(_ v: [Double]?, _ count: Int, _ field: String, _ fallback: [Double]) throws(GLTFError)
      -> [Double]
    {
      guard let v else { return fallback }
      guard v.count == count, v.allSatisfy(\.isFinite) else {
        throw fail(here + "/" + field, "expected \(count) finite numbers")
      }
      return v
    }
    var t = try vector(node.translation, 3, "translation", [0, 0, 0])
    var r = try vector(node.rotation, 4, "rotation", [0, 0, 0, 1])
    var s = try vector(node.scale, 3, "scale", [1, 1, 1])
    if let v = pose?.translation[index] { t = [v.x, v.y, v.z] }
    if let v = pose?.rotation[index] { r = [v.x, v.y, v.z, v.w] }
    if let v = pose?.scale[index] { s = [v.x, v.y, v.z] }
    var q = Quaternion(vector: SIMD4(r[0], r[1], r[2], r[3]))
    let length = (q.vector * q.vector).sum().squareRoot()
    guard length > 1e-6 else { throw fail(here + "/rotation", "a zero quaternion") }
    q = Quaternion(vector: q.vector / length)
    return Matrix4(linear: q.matrix, translation: SIMD3(t[0], t[1], t[2])) * .scale(SIMD3(s[0], s[1], s[2]))
  }

  private mutating func addMesh(_ index: Int, node: Int, world: Matrix4<Double>, at pointer: String)
    throws(GLTFError)
  {
    let meshes = container.document.meshes ?? []
    guard meshes.indices.contains(index) else { throw fail(pointer, "mesh \(index) does not exist") }
    let nodeJSON = container.document.nodes![node]
    let weights = pose?.weights[node] ?? nodeJSON.weights ?? meshes[index].weights
    let skin = pose == nil ? nil : try skinMatrices(nodeJSON.skin, at: "/nodes/\(node)/skin")
    for (p, primitive) in meshes[index].primitives.enumerated() {
      let here = "/meshes/\(index)/primitives/\(p)"
      let mode = primitive.mode ?? 4
      guard (4...6).contains(mode) else {
        guard (0...3).contains(mode) else { throw fail(here + "/mode", "\(mode) is no glTF primitive mode") }
        warnings.append("\(container.path): \(here): points and lines (mode \(mode)) are not drawn")
        continue
      }
      let slot = try materialSlot(primitive.material, at: here + "/material")
      var attributes = try GLTFPrimitiveAttributes(
        primitive, accessors: accessors,
        texCoordSets: GLTFMaterialConversion.texCoordSets(
          primitive.material.flatMap { container.document.materials?[safe: $0] }),
        morphWeights: weights, skinned: skin != nil, at: here)
      // A mesh drawn by several nodes says so once.
      for note in attributes.notes where !warnings.contains("\(container.path): \(note)") {
        warnings.append("\(container.path): \(note)")
      }
      // A skinned mesh is placed by its joints alone: its own node's transform is ignored.
      if let skin, let joints = attributes.joints, let jointWeights = attributes.jointWeights {
        try GLTFSkinning.apply(
          skin, joints: joints, weights: jointWeights, to: &attributes, at: here, path: container.path)
        geometry.append(attributes, world: .identity, mode: mode, material: slot)
      } else {
        geometry.append(attributes, world: world, mode: mode, material: slot)
      }
    }
  }

  /// Skin `index`'s joint matrices (each joint's transform in the asset's frame times its
  /// inverse bind matrix), or nil for a node without a skin.
  private func skinMatrices(_ index: Int?, at pointer: String) throws(GLTFError) -> [Matrix4<Double>]? {
    guard let index else { return nil }
    guard let skin = container.document.skins?[safe: index] else {
      throw fail(pointer, "skin \(index) does not exist")
    }
    var inverseBind = [Matrix4<Double>](repeating: .identity, count: skin.joints.count)
    if let accessor = skin.inverseBindMatrices {
      let (m, _) = try accessors.read(accessor, expect: ["MAT4"], at: "/skins/\(index)/inverseBindMatrices")
      guard m.count == 16 * skin.joints.count else {
        throw fail(
          "/skins/\(index)/inverseBindMatrices", "\(m.count / 16) matrices for \(skin.joints.count) joints")
      }
      for j in inverseBind.indices {
        let c = Array(m[16 * j..<16 * j + 16])
        inverseBind[j] = Matrix4(
          SIMD4(c[0], c[1], c[2], c[3]), SIMD4(c[4], c[5], c[6], c[7]), SIMD4(c[8], c[9], c[10], c[11]),
          SIMD4(c[12], c[13], c[14], c[15]))
      }
    }
    var matrices: [Matrix4<Double>] = []
    for (j, joint) in skin.joints.enumerated() {
      guard let global = globals[joint] else {
        throw fail("/skins/\(index)/joints/\(j)", "joint node \(joint) is not in the scene")
      }
      matrices.append(global * inverseBind[j])
    }
    return matrices
  }

  /// Our index of glTF material `index` (nil: the default material), made on first use.
  private mutating func materialSlot(_ index: Int?, at pointer: String) throws(GLTFError) -> Int {
    let key = index ?? -1
    if let slot = materialSlots[key] { return slot }
    let material: GLTFMaterialConversion
    if let index {
      let materials = container.document.materials ?? []
      guard materials.indices.contains(index) else { throw fail(pointer, "material \(index) does not exist") }
      material = try GLTFMaterialConversion(materials[index], index: index, container: container)
      for (path, bytes) in material.embeddedImages { embeddedImages[path] = bytes }
      warnings += material.warnings
    } else {
      material = GLTFMaterialConversion.defaultMaterial
    }
    geometry.materials.append(material.material)
    geometry.textureTransforms.append(material.textureTransform)
    geometry.secondTransforms.append(material.secondTextureTransform)
    materialSlots[key] = geometry.materials.count - 1
    return geometry.materials.count - 1
  }

  /// The mesh and its vertices' bounds (``GLTFGeometry/assembled()``).
  func assembled() -> (mesh: Mesh, bounds: (min: SIMD3<Double>, max: SIMD3<Double>)?) { geometry.assembled() }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
