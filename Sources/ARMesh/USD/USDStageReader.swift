import ARMath
import Dispatch
import RealModule

/// A USD stage's composed prims (a layer, with the layers it references inside its package)
/// walked into a mesh.
struct USDStageReader {
  let layer: USDLayer
  /// The package's other files (textures), by their names in it.
  var packageFiles: [String: ArraySlice<UInt8>] = [:]
  /// For a bare layer file, the file a texture's asset path names beside it (confined to its
  /// folder and the allowed ones), or why it cannot be read; nil for a package.
  var folderFile: (@Sendable (String) -> Result<[UInt8], USDError>)?

  var prims: [(path: String, type: String)] { layer.prims }
  var values: [String: USDValue] { layer.values }
  var connections: [String: [String]] { layer.connections }
  var interpolations: [String: String] { layer.interpolations }
  var metersPerUnit: Double { layer.metersPerUnit }
  var upAxis: String { layer.upAxis }
  var primCount: Int { prims.count }

  /// The time code the stage is read at (seconds times the stage's time codes a second); nil:
  /// the default time, each attribute's default value (its first sample when it has none).
  var timeCode: Double?
  /// Metres a round implicit shape may stray from its surface.
  var tolerance = USDImplicitShapes.defaultTolerance

  /// Each prim's primvar attributes (`/Mesh.primvars:st`), sorted, by the prim's path: found once
  /// for the stage, not by a pass over every attribute for each mesh.
  let primvars: [String: [String]]

  /// Each prim's type, by its path.
  let primTypes: [String: String]

  /// Each prim's collection-based material bindings (`/World.material:binding:collection:red`),
  /// sorted, by the prim's path, and the members of each collection they name, by its path
  /// (`/World.collection:red`): found once for the stage, not for each surface.
  let collectionBindings: [String: [String]], collections: [String: USDCollectionMembers]

  /// The meshes' fans, made once for meshes that share their topology's arrays.
  let fanCache = USDFanCache()

  /// The prims whose model kind is a component or a subcomponent (``boundsFrame(of:)``).
  let componentPrims: Set<String>

  init(_ layer: USDLayer) {
    var layer = layer
    // Prims of types usd-core does not know, read as the stage's fallbacks for them say.
    if !layer.fallbackPrimTypes.isEmpty {
      layer.prims = layer.prims.map {
        ($0.path, USDFallbackPrimTypes.resolved($0.type, layer.fallbackPrimTypes))
      }
    }
    self.layer = layer
    componentPrims = Set(layer.kinds.filter { $0.value == "component" || $0.value == "subcomponent" }.keys)
    primTypes = Dictionary(layer.prims.map { ($0.path, $0.type) }) { first, _ in first }
    var primvars: [String: [String]] = [:]
    var collectionBindings: [String: [String]] = [:]
    for key in layer.values.keys {
      if let dot = key.firstASCII(".primvars:") {
        primvars[String(key[..<dot.lowerBound]), default: []].append(key)
      } else if let dot = key.firstASCII(".material:binding:collection:") {
        collectionBindings[String(key[..<dot.lowerBound]), default: []].append(key)
      }
    }
    self.primvars = primvars.mapValues { $0.sorted() }
    self.collectionBindings = collectionBindings.mapValues { $0.sorted() }
    var collections: [String: USDCollectionMembers] = [:]
    for key in collectionBindings.values.joined() {
      guard case .paths(let targets)? = layer.values[key] else { continue }
      for collection in targets where collection.contains(".collection:") && collections[collection] == nil {
        collections[collection] = USDCollectionMembers(collection, values: layer.values)
      }
    }
    self.collections = collections
  }

  /// The stage's time codes a second: its `timeCodesPerSecond`, else `framesPerSecond`, else 24.
  var timeCodesPerSecond: Double { layer.timeCodesPerSecond ?? 24 }

  /// A transform op's value at ``timeCode``; at the default time, an op that has only time
  /// samples is the identity, as USD reads it (no value there).
  func opValue(_ key: String) -> USDValue? {
    guard timeCode == nil, isSampledOnly(key) else { return value(key) }
    return USDTransformOps.identity(ofOp: String(key[key.index(after: key.lastASCII(".")!)...]))
  }

  /// An attribute's value at ``timeCode``: its samples interpolated there, held before the first
  /// and after the last (USD's linear interpolation: numbers and vectors linearly, quaternions
  /// by slerp), or its default value; at the default time, none for an attribute that has only
  /// time samples (USD's reading: its schema's fallback applies).
  func value(_ key: String) -> USDValue? {
    let found: USDValue?
    if let timeCode, let samples = layer.timeSamples[key] {
      found = USDTimeSamples.value(at: timeCode, times: samples.times, values: samples.values)
    } else {
      found = timeCode == nil && isSampledOnly(key) ? nil : values[key]
    }
    // A half-precision attribute is held, and blended, at its precision. (Most stages have
    // none: an empty set is not asked, which would hash the key, several a prim.)
    return !layer.halfPrecision.isEmpty && layer.halfPrecision.contains(key) ? found?.roundedToHalf : found
  }

  /// Whether attribute `key` has time samples and no default value (an empty set answers
  /// without hashing the key).
  func isSampledOnly(_ key: String) -> Bool { !layer.sampledOnly.isEmpty && layer.sampledOnly.contains(key) }

  /// What ``build()`` makes of the stage.
  struct Built {
    /// Every drawn surface's triangles in ARScene's frame, with the materials.
    var mesh: Mesh
    /// The bounds of ``mesh``'s vertices as the assembly found them; nil for none.
    var assembledBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
    /// Built without assembling: the counts of the mesh's vertices and triangles (``mesh`` is
    /// then empty); nil when it was assembled.
    var survey: (vertices: Int, triangles: Int)?
    /// The stage's prims (but classes and inactive ones) where their origins are.
    var nodes: [NamedNode]
    /// The package's images the materials use, by the texture path they are named by.
    var images: [String: [UInt8]]
    /// The bounds as USD's own tools compute them (each drawn surface's authored `extent`, else
    /// its points, through its transform; nil with none).
    var declaredBounds: (min: SIMD3<Double>, max: SIMD3<Double>)?
    /// The surfaces drawn.
    var surfaces = 0
    /// What was read but not drawn as authored, one line each.
    var warnings: [String] = []

    /// What lies under components, boxed in each component's space, by its path: folded into
    /// ``declaredBounds`` once every prim is in (``USDStageReader/foldComponentBounds(_:)``).
    var componentBoxes: [String: (min: SIMD3<Double>, max: SIMD3<Double>)] = [:]
    /// The components' placements and their inverses, found once (nil: cannot be inverted).
    var componentPlacements: [String: (world: Matrix4<Double>, inverse: Matrix4<Double>)?] = [:]

    /// Widens ``declaredBounds`` to take in `points`.
    mutating func include(_ points: [SIMD3<Double>]) {
      for p in points {
        declaredBounds = declaredBounds.map { (pointwiseMin($0.min, p), pointwiseMax($0.max, p)) } ?? (p, p)
      }
    }
  }

  /// Every drawn surface (a mesh or an implicit shape on the stage, visible, of the default or
  /// render purpose) in the stage's frame turned into ARScene's, with the named prims, images,
  /// bounds and warnings. Without `assembling`, the mesh is left empty: its counts are the
  /// ``Built/survey`` and its bounds those the assembly would find (`model stats`).
  func build(assembling: Bool = true) throws(USDError) -> Built {
    var undrawn = UndrawnPrims()
    let stage = stageMatrix
    // The prims something hangs under: every path's parent.
    let parents = Set(prims.map { String($0.path[..<($0.path.lastASCII("/") ?? $0.path.startIndex)]) })
    // Each prim's presence, found once for the surfaces made and the prims drawn: as itself,
    // and as part of a point instancer's prototype (which takes its definition and visibility
    // from the prototype's root down).
    let prototypeRoots = Set(prims.filter { $0.type == "PointInstancer" }.flatMap { prototypes(of: $0.path) })
    let facts = primFacts()
    let presences = facts.map(\.presence)
    let asPrototype = prims.map { prim in
      let root =
        prototypeRoots.isEmpty
        ? nil : ([prim.path] + Self.ancestors(of: prim.path)).first(where: prototypeRoots.contains)
      return root.map { presence(of: prim.path, prototypeRoot: $0) == .drawn } ?? false
    }
    let (made, looks) = try madeSurfaces(prims.indices.map { asPrototype[$0] ? .drawn : presences[$0] })
    var sink = SurfaceSink(self)
    sink.looks = looks
    sink.built.warnings += layer.notes + collectionWarnings()
    var worlds: [String: Matrix4<Double>] = [:]
    /// Draws through `sink` (bounded by its own extent).
    func draw(
      _ prim: (path: String, type: String), _ attributes: GLTFPrimitiveAttributes, _ world: Matrix4<Double>,
      bounded: Bool
    ) throws(USDError) {
      try sink.draw(self, prim, attributes, world, bounded: bounded)
    }
    for (index, prim) in prims.enumerated() {
      let presence = presences[index]
      guard presence != .absent else { continue }
      var world = try facts[index].world!.get()
      let isSurface = prim.type == "Mesh" || USDImplicitShapes.types.contains(prim.type)
      sink.built.nodes.append(
        NamedNode(
          name: Self.name(of: prim.path), position: world.translation,
          hasMesh: isSurface && presence == .drawn, hasChildren: parents.contains(prim.path)))
      // BBoxCache takes nothing under a boundable prim (a SkelRoot, a gprim) into the bounds.
      let bounding = facts[index].bounding
      if presence == .drawn, bounding == nil {
        includeUndrawn(prim, world, in: &sink.built, undrawn: &undrawn.kinds)
      }
      if presence == .drawn, prim.type == "Preliminary_Text" { undrawn.arText.append(prim.path) }
      // What is under a point instancer is drawn only as its prototypes' instances (an instancer
      // in a prototype, by the outermost instancer).
      let instanced = facts[index].underInstancer
      if prim.type == "PointInstancer", presence == .drawn, !instanced {
        // (Its warnings apart from the sink, which drawing changes.)
        var warnings: [String] = []
        let box = try drawInstances(
          of: prim.path, world: world, made: made, asPrototype: { asPrototype[$0] }, warnings: &warnings
        ) { (part, attributes, placed) throws(USDError) in
          try draw(part, attributes, placed, bounded: false)
        }
        sink.built.warnings += warnings
        // BBoxCache bounds an instancer by its extent.
        if bounding == nil {
          includeBounds(
            instancerExtentCorners(prim.path, computed: box), of: prim.path, placedBy: world, in: &sink.built)
        }
        warnOfMissingPrototypes(
          prim.path, presence: { self.presence(of: $0, prototypeRoot: $0) }, in: &sink.built)
      }
      if instanced, asPrototype[index] { sink.built.warnings += made[index].warnings }
      guard presence == .drawn, !instanced else {
        if isSurface, !instanced, case .hidden(let why) = presence {
          undrawn.hidden[why, default: []].append(prim.path)
        }
        continue
      }
      sink.built.warnings += made[index].warnings
      guard let (attributes, placedBy) = made[index].surface else {
        noteUnmade(prim, world, bounded: bounding == nil, in: &sink.built, undrawn: &undrawn)
        continue
      }
      if placedBy != prim.path { world = try stage * worldMatrix(placedBy, known: &worlds) }
      if let bounding, bounding.type != "SkelRoot" {
        undrawn.nested.append("\(prim.path) (under \(bounding.path))")
      }
      try draw(prim, attributes, world, bounded: bounding == nil)
    }
    foldComponentBounds(&sink.built)
    sink.built.warnings += undrawn.warnings(layer.path) + identityOpsWarnings(facts)
    if assembling {
      (sink.built.mesh, sink.built.assembledBounds) = sink.geometry.assembled()
    } else {
      let survey = sink.geometry.surveyed()
      (sink.built.survey, sink.built.assembledBounds) = ((survey.vertices, survey.triangles), survey.bounds)
    }
    return sink.built
  }

  /// Takes into `built`'s bounds what BBoxCache bounds and nothing draws here: a SkelRoot's
  /// extent (its skinned meshes' bounds), a light's, a skeleton's, and those of curves and
  /// points (named in `undrawn`); `prim` drawn, placed by `world`, under no boundable prim.
  private func includeUndrawn(
    _ prim: (path: String, type: String), _ world: Matrix4<Double>, in built: inout Built,
    undrawn: inout [String]
  ) {
    if prim.type == "SkelRoot" {
      if let box = skelRootExtent(prim.path) {
        includeBounds(Self.corners(box), of: prim.path, placedBy: world, in: &built)
      } else {
        built.warnings.append(
          "\(layer.path): SkelRoot \(prim.path) binds no skinned mesh, holds no skeleton that can be posed and "
            + "has no extent: USD's BBoxCache bounds it, and everything under it, as empty, and so do these bounds"
        )
      }
    }
    if let corners = boundsOnlyCorners(prim) {
      includeBounds(corners, of: prim.path, placedBy: world, in: &built)
      if Self.undrawnGeometry.contains(prim.type) { undrawn.append("\(prim.path) (\(prim.type))") }
    }
  }

  /// Notes in `undrawn` why surface `prim` (drawn, placed by `world`) has nothing to draw, and
  /// takes into `built`'s bounds, where `bounded`, the extent BBoxCache still gives it.
  private func noteUnmade(
    _ prim: (path: String, type: String), _ world: Matrix4<Double>, bounded: Bool, in built: inout Built,
    undrawn: inout UndrawnPrims
  ) {
    var extent: [SIMD3<Double>] = []
    if timeCode == nil, isSampledOnly(prim.path + ".points") {
      undrawn.hidden[UndrawnPrims.sampledPoints, default: []].append(prim.path)
      extent = authoredExtentCorners(prim.path)
    } else if prim.type == "Mesh", case .vectors(let points)? = value(prim.path + ".points") {
      // Points without faces: the extent, else the points'.
      undrawn.faceless.append(prim.path)
      extent = extentCorners(prim.path, GLTFPrimitiveAttributes(positions: points, triangles: []))
    } else if prim.type == "Mesh" {
      // Points missing or not 3-vectors: the authored extent.
      undrawn.pointless.append(prim.path)
      extent = authoredExtentCorners(prim.path)
    }
    if bounded { includeBounds(extent, of: prim.path, placedBy: world, in: &built) }
  }

  /// Whether a prim is on the stage and drawn.
  enum Presence: Equatable {
    case drawn
    /// On the stage but not drawn, and why (`invisible`, `of purpose guide`).
    case hidden(String)
    /// Not on the stage: under a class or an inactive prim.
    case absent
  }

  /// Whether the prim at `path` is drawn: absent under a class, an inactive prim or one no layer
  /// defines (only `over`s); hidden when it or an ancestor is invisible at the time read, or
  /// when its purpose is neither `default` nor `render`, as a renderer showing the render
  /// purpose leaves it out. Its purpose, as `UsdGeomImageable.ComputePurpose` finds it: its own
  /// where authored, else its nearest ancestor's authored one, else `default`. Only imageable
  /// prims' visibility and purpose count (``imageableTypes``: a typeless prim's do not). A point
  /// instancer's prototype under `prototypeRoot` takes its definition and visibility only from
  /// that root down, as Hydra draws a `def` prototype under an `over` or an invisible scope.
  func presence(of path: String, prototypeRoot: String? = nil) -> Presence {
    var prefix = "", purpose = "default", invisible = false
    let definedFrom = prototypeRoot?.utf8.count ?? 0
    for part in path.split(separator: "/") {
      prefix += "/" + part
      if layer.abstractPrims.contains(prefix) || layer.inactivePrims.contains(prefix)
        || prefix.utf8.count >= definedFrom && layer.overriddenPrims.contains(prefix)
          && !layer.definedPrims.contains(prefix)
      {
        return .absent
      }
      guard let type = primTypes[prefix], Self.imageableTypes.contains(type) else { continue }
      // A prototype's ancestors above its root lend it no visibility: an invisible scope holding
      // prototypes hides them, not their instances (their purpose still counts, as BBoxCache's).
      if prefix.utf8.count >= definedFrom, case .token("invisible")? = value(prefix + ".visibility") {
        invisible = true
      }
      if case .token(let own)? = values[prefix + ".purpose"] { purpose = own }
    }
    if invisible { return .hidden("invisible") }
    // Only the default and render purposes are drawn: `guide`, `proxy` and any other token
    // (not a purpose USD knows) are left out, as BBoxCache with those two purposes leaves them.
    return ["default", "render"].contains(purpose) ? .drawn : .hidden("of purpose \(purpose)")
  }

  /// The prim types that are `UsdGeomImageable` in usd-core 26.11 (UsdGeom's, UsdSkel's,
  /// UsdLux's, UsdVol's, UsdProc's, UsdPhysics's joints, UsdMedia's), whose visibility and
  /// purpose count: not a typeless prim, a material or shader, a
  /// `GeomSubset`, an animation, or a type USD does not know.
  static let imageableTypes: Set<String> = [
    "Xform", "Scope", "Mesh", "Cube", "Sphere", "Cylinder", "Cylinder_1", "Cone", "Capsule", "Capsule_1",
    "Plane",
    "Points", "BasisCurves", "NurbsCurves", "HermiteCurves", "NurbsPatch", "TetMesh", "PointInstancer",
    "Camera",
    "SkelRoot", "Skeleton", "Volume", "OpenVDBAsset", "Field3DAsset", "SphereLight", "RectLight", "DiskLight",
    "CylinderLight", "DistantLight", "DomeLight", "DomeLight_1", "PortalLight", "GeometryLight",
    "PluginLight",
    "LightFilter", "PluginLightFilter", "ParticleField", "ParticleField3DGaussianSplat",
    "GenerativeProcedural",
    "SpatialAudio", "PhysicsJoint", "PhysicsFixedJoint", "PhysicsRevoluteJoint", "PhysicsPrismaticJoint",
    "PhysicsSphericalJoint", "PhysicsDistanceJoint",
  ]

  /// What ``madeSurfaces(_:)`` makes of a prim: its surface (nil where it draws none) and warnings.
  typealias Made = (surface: (attributes: GLTFPrimitiveAttributes, placedBy: String)?, warnings: [String])

  /// Each drawn prim's surface (``surface(_:warnings:)``; `presences` the prims') and warnings,
  /// made on every core: a stage's meshes are triangulated, skinned and given normals
  /// independently. The first error in the prims' order is thrown, as a loop would.
  private func madeSurfaces(_ presences: [Presence]) throws(USDError) -> (
    made: [Made], looks: [String: SurfaceLook]
  ) {
    let drawn = prims.indices.filter { i in
      let type = prims[i].type
      return (type == "Mesh" || USDImplicitShapes.types.contains(type)) && presences[i] == .drawn
    }
    let results = LockedResults<Made>(count: drawn.count)
    // Each surface's look too, found here on every core rather than where it is drawn.
    let found = LockedResults<SurfaceLook>(count: drawn.count)
    DispatchQueue.concurrentPerform(iterations: drawn.count) { k in
      found.set(k) { SurfaceLook(of: self.prims[drawn[k]].path, in: self) }
      results.set(k) {
        var warnings: [String] = []
        return (try self.surface(self.prims[drawn[k]], warnings: &warnings), warnings)
      }
    }
    var made = [Made](repeating: (nil, []), count: prims.count)
    for (k, result) in results.all().enumerated() {
      switch result {
      case .success(let value): made[drawn[k]] = value
      case .failure(let error as USDError): throw error
      case .failure(let error):
        throw USDError(path: layer.path, place: prims[drawn[k]].path, reason: "\(error)")
      }
    }
    var looks: [String: SurfaceLook] = [:]
    for (k, look) in found.all().enumerated() {
      if case .success(let look) = look { looks[prims[drawn[k]].path] = look }
    }
    return (made, looks)
  }

  /// The last element of a prim's `path` (`/A/B/C`: `C`), found by its bytes.
  static func name(of path: String) -> String {
    guard let slash = path.lastASCII("/") else { return path }
    return String(path[path.utf8.index(after: slash)...])
  }

  /// The strict ancestors of the prim at `path`, nearest first (`/A/B/C`: `/A/B`, `/A`).
  static func ancestors(of path: String) -> [String] {
    var out: [String] = []
    var prefix = Substring(path)
    while let slash = prefix.lastASCII("/"), slash != prefix.startIndex {
      prefix = prefix[..<slash]
      out.append(String(prefix))
    }
    return out
  }

  /// `paths`, the first few of them, for a message.
  static func list(_ paths: [String]) -> String {
    paths.prefix(5).joined(separator: ", ") + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
  }

  /// The warning for a material that has no `UsdPreviewSurface` (a RealityKit or MaterialX
  /// network only, or none), naming its shaders.
  func materialWarning(_ material: String, boundTo prim: String) -> String {
    let shaders = prims.filter { $0.path.hasPrefix(material + "/") && $0.type == "Shader" }.compactMap {
      shader in
      if case .token(let id)? = values[shader.path + ".info:id"] { return id }
      return nil
    }
    let what =
      prims.contains { $0.path == material }
      ? shaders.isEmpty
        ? "has no shader ARScene reads" : "has no UsdPreviewSurface (its shaders: \(Self.list(shaders)))"
      : "is not on the stage"
    return "\(layer.path): material \(material), bound to \(prim), \(what); drawn in the default grey"
  }

  /// The prim's extent as USD's BBoxCache takes it: the authored one, else its points' box (an
  /// implicit shape's schema extent, which its vertices reach), as its 8 corners.
  func extentCorners(_ prim: String, _ attributes: GLTFPrimitiveAttributes) -> [SIMD3<Double>] {
    if case .vectors(let authored)? = value(prim + ".extent"), authored.count == 2,
      authored.allFinite
    {
      // An extent whose minimum passes its maximum is an empty box to BBoxCache.
      guard all(authored[0] .<= authored[1]) else { return [] }
      return Self.corners((authored[0], authored[1]))
    }
    return Self.corners(attributes.positionBounds)
  }

  /// A prim's authored extent as its 8 corners (none without a valid one): a boundable light's,
  /// or a mesh's that draws nothing.
  func authoredExtentCorners(_ prim: String) -> [SIMD3<Double>] {
    guard case .vectors(let authored)? = value(prim + ".extent"), authored.count == 2,
      authored.allFinite,
      all(authored[0] .<= authored[1])
    else { return [] }
    return Self.corners((authored[0], authored[1]))
  }

  /// ``authoredExtentCorners(_:)`` where an extent is authored (a two-point one, valid or not:
  /// an invalid or inverted one bounds nothing), else `computed()`, the extent the prim's schema
  /// computes: BBoxCache's rule for every boundable.
  func authoredExtentCorners(_ prim: String, else computed: () -> [SIMD3<Double>]) -> [SIMD3<Double>] {
    if case .vectors(let authored)? = value(prim + ".extent"), authored.count == 2 {
      return authoredExtentCorners(prim)
    }
    return computed()
  }

  /// A box's 8 corners (none for an empty box).
  static func corners(_ box: (min: SIMD3<Double>, max: SIMD3<Double>)) -> [SIMD3<Double>] {
    // An empty box (no points: a mesh Blender writes with none, from geometry nodes whose
    // instances it did not realise) has no corners; its infinities were once the stage's bounds.
    guard all(box.min .<= box.max) else { return [] }
    return (0..<8).map { k in
      SIMD3(
        k & 1 == 0 ? box.min.x : box.max.x, k & 2 == 0 ? box.min.y : box.max.y,
        k & 4 == 0 ? box.min.z : box.max.z)
    }
  }

  /// The mesh's triangles grouped by material: faces a `GeomSubset` (of `face` elements) binds
  /// a material to take that one, the others the mesh's own (`slot` gives a bound prim's
  /// material); the faces its `holeIndices` name left out, as Hydra draws holes. Without subsets
  /// that bind or holes, the whole mesh with its own.
  func facesByMaterial(
    _ prim: (path: String, type: String), _ attributes: GLTFPrimitiveAttributes, subsets: [String],
    slot: (String) -> Int
  ) throws(USDError) -> [(Int, GLTFPrimitiveAttributes)] {
    let own = slot(prim.path)
    let binding = subsets.filter { values[$0 + ".material:binding"] != nil }
    var holes: [Int64] = []
    if case .ints(let given)? = value(prim.path + ".holeIndices") { holes = given }
    guard prim.type == "Mesh", !binding.isEmpty || !holes.isEmpty,
      case .ints(let counts)? = value(prim.path + ".faceVertexCounts")
    else { return [(own, attributes)] }
    // The parts share the mesh's vertices, and so its normals, made from all its triangles.
    let attributes = attributes.withNormalsMade()
    // Each triangle's face: polygons are fans of n − 2 triangles, face after face.
    let faces = counts.enumerated().flatMap { f, n in Array(repeating: f, count: max(0, Int(n) - 2)) }
    guard faces.count * 3 == attributes.triangles.count else { return [(own, attributes)] }
    /// Face `index` of `attribute`, checked to be one of the mesh's.
    func face(_ index: Int64, of attribute: String) throws(USDError) -> Int {
      guard index >= 0, index < counts.count else {
        throw USDError(
          path: layer.path, place: attribute, reason: "face \(index) of a mesh of \(counts.count) faces")
      }
      return Int(index)
    }
    // A face's material slot; nil for a hole.
    var faceSlot = [Int?](repeating: own, count: counts.count)
    for subset in binding {
      if case .token(let element)? = values[subset + ".elementType"], element != "face" { continue }
      guard case .ints(let indices)? = values[subset + ".indices"] else { continue }
      let material = slot(subset)
      for index in indices { faceSlot[try face(index, of: subset + ".indices")] = material }
    }
    for index in holes { faceSlot[try face(index, of: prim.path + ".holeIndices")] = nil }
    var groups: [Int: [UInt32]] = [:]
    for (t, face) in faces.enumerated() {
      guard let material = faceSlot[face] else { continue }
      groups[material, default: []] += attributes.triangles[(3 * t)..<(3 * t + 3)]
    }
    return groups.sorted { $0.key < $1.key }.map { material, triangles in
      var part = attributes
      part.triangles = triangles
      return (material, part)
    }
  }

  /// Metres and +Y up: the stage's units scaled, a Z-up stage turned −90° about x.
  var stageMatrix: Matrix4<Double> {
    let scale = Matrix4<Double>.scale(SIMD3(repeating: metersPerUnit))
    guard upAxis == "Z" else { return scale }
    let turn = Matrix4<Double>(SIMD4(1, 0, 0, 0), SIMD4(0, 0, -1, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 0, 1))
    return turn * scale
  }

  /// A prim's transform in the stage: its ancestors' local transforms, then its own (from the
  /// nearest that resets the stack).
  func worldMatrix(_ path: String) throws(USDError) -> Matrix4<Double> {
    var known: [String: Matrix4<Double>] = [:]
    return try worldMatrix(path, known: &known)
  }

  /// ``worldMatrix(_:)``, taking the prims' transforms already in `known` (by path) and adding
  /// those it finds: over a stage's prims, each prim's own ops evaluated once, not again for
  /// every prim under it (on a 100-part USDZ, 3.3% of the reading thread's time before, 2.0%
  /// after). Recursion as deep as the path, which the readers bound (128 prims nested).
  func worldMatrix(_ path: String, known: inout [String: Matrix4<Double>]) throws(USDError) -> Matrix4<Double>
  {
    if let matrix = known[path] { return matrix }
    let parent = path[..<(path.lastASCII("/") ?? path.startIndex)]
    var matrix = parent.isEmpty ? Matrix4<Double>.identity : try worldMatrix(String(parent), known: &known)
    if !path.isEmpty, case .tokens(let order)? = values[path + ".xformOpOrder"] {
      let local = try USDTransformOps.local(
        order, of: path, values: { opValue(path + "." + $0) }, path: layer.path)
      matrix = local.resets ? local.matrix : matrix * local.matrix
    }
    known[path] = matrix
    return matrix
  }
}
