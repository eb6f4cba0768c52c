import ARMath

/// Point instancers as Hydra draws them and BBoxCache bounds them: each instance places its
/// prototype's surfaces, and a prototype may itself hold point instancers (nested instancing),
/// whose instances are flattened into it.
extension USDStageReader {
  /// A surface a point instancer draws: its prim, its surface and its transform from the space
  /// it is placed in (a prototype root's parent, or an instancer's own space).
  typealias InstancedPart = (
    prim: (path: String, type: String), attributes: GLTFPrimitiveAttributes, local: Matrix4<Double>
  )

  /// A box, low and high corners.
  typealias Box = (min: SIMD3<Double>, max: SIMD3<Double>)

  /// Point instancers nested deeper than this (an instancer's prototype holding an instancer,
  /// and so on) are refused by name.
  static let maximumInstancerNesting = 8

  /// An instancer inside a prototype is flattened into at most this many placed surfaces (each
  /// held until the outer instancer places them all): beyond, it is refused by name, where a
  /// hostile file's nested instancers would ask for gigabytes.
  static let maximumFlattenedSurfaces = 1_000_000

  /// Whether a point instancer is a strict ancestor of the prim at `path`: BBoxCache bounds it
  /// by the instancer's extent and Hydra draws it only through the instancer's prototypes.
  func isUnderInstancer(_ path: String) -> Bool {
    Self.ancestors(of: path).contains { primTypes[$0] == "PointInstancer" }
  }

  /// Draws every instance of point instancer `instancer` (placed by `world`): each prototype's
  /// surfaces through the instance's transform, the prototype's own transform and those between
  /// it and each surface, as USD composes them; a point instancer in a prototype drawn through
  /// its own instances too. `asPrototype(i)` says whether prim `i` is drawn as part of a
  /// prototype; `chain` holds the instancers whose prototypes hold this one. Returns the
  /// instancer's extent as `UsdGeomPointInstancer` computes it (its instances' box in its own
  /// space), nil without instances.
  func drawInstances(
    of instancer: String, world: Matrix4<Double>, made: [Made], asPrototype: (Int) -> Bool,
    chain: [String] = [], warnings: inout [String],
    draw: ((path: String, type: String), GLTFPrimitiveAttributes, Matrix4<Double>) throws(USDError) -> Void
  ) throws(USDError) -> Box? {
    // Instances that cannot be computed (counts that disagree, an index past the prototypes):
    // usd-core's ComputeInstanceTransformsAtTime fails, and the instancer draws and bounds
    // nothing. So here, with a warning naming why.
    let instances: [(prototype: Int, transform: Matrix4<Double>)]
    do {
      instances = try self.instances(of: instancer)
    } catch {
      warnings.append(
        "\(layer.path): point instancer \(instancer) not drawn, as usd-core draws none of it: \(error.place): "
          + error.reason)
      return nil
    }
    let prototypes = try prototypeParts(
      of: instancer, made: made, asPrototype: asPrototype, chain: chain, warnings: &warnings)
    let vertices = instances.reduce(0) { sum, instance in
      sum + prototypes[instance.prototype].parts.reduce(0) { $0 + $1.attributes.positions.count }
    }
    guard vertices <= Self.maximumInstancedVertices else {
      throw USDError(
        path: layer.path, place: instancer,
        reason:
          "\(instances.count) instances would make \(vertices) vertices, more than \(Self.maximumInstancedVertices)"
      )
    }
    // An inner instancer's surfaces are held, not streamed: bounded by count too.
    let placed = instances.reduce(0) { $0 + prototypes[$1.prototype].parts.count }
    guard chain.isEmpty || placed <= Self.maximumFlattenedSurfaces else {
      throw USDError(
        path: layer.path, place: instancer,
        reason: "a point instancer inside a prototype that would place \(placed) surfaces, more than "
          + "\(Self.maximumFlattenedSurfaces)")
    }
    var corners: [SIMD3<Double>] = []
    for instance in instances {
      let prototype = prototypes[instance.prototype]
      for part in prototype.parts {
        try draw(part.prim, part.attributes, world * instance.transform * part.local)
      }
      // The prototype's box through the instance, as UsdGeomPointInstancer's extent takes it.
      if let box = prototype.box {
        corners += Self.corners(box).map((instance.transform * prototype.above).transformPoint)
      }
    }
    return Self.box(corners)
  }

  /// Each prototype of `instancer`: its surfaces and their transforms relative to the prototype
  /// root's parent (a point instancer inside it flattened into its instances' surfaces); and,
  /// for the extent, the prototype's box as BBoxCache bounds it untransformed (a surface root:
  /// its own extent; else its surfaces' and inner instancers' boxes, in the stage's axes) with
  /// the transform `above` from that box's space to the root's parent.
  private func prototypeParts(
    of instancer: String, made: [Made], asPrototype: (Int) -> Bool, chain: [String], warnings: inout [String]
  ) throws(USDError) -> [(parts: [InstancedPart], box: Box?, above: Matrix4<Double>)] {
    var out: [(parts: [InstancedPart], box: Box?, above: Matrix4<Double>)] = []
    for root in prototypes(of: instancer) {
      let parent = String(root[..<(root.lastASCII("/") ?? root.startIndex)])
      let above = try worldMatrix(parent).inverse ?? .identity
      var surfaces: [InstancedPart] = [], corners: [SIMD3<Double>] = []
      for (index, prim) in prims.enumerated() where prim.path == root || prim.path.hasPrefix(root + "/") {
        // What an instancer inside the prototype holds, it draws.
        guard !hasInstancer(between: root, and: prim.path) else { continue }
        if prim.type == "PointInstancer" {
          guard asPrototype(index) else { continue }
          let inner = try flattened(
            prim.path, made: made, asPrototype: asPrototype, chain: chain + [instancer], warnings: &warnings)
          let placed = try worldMatrix(prim.path)
          surfaces += inner.parts.map { ($0.prim, $0.attributes, above * placed * $0.local) }
          corners += instancerExtentCorners(prim.path, computed: inner.box).map(placed.transformPoint)
          continue
        }
        guard asPrototype(index), let attributes = made[index].surface?.attributes else { continue }
        let placed = try worldMatrix(prim.path)
        // A prototype drawn by every instance: its normals made once.
        surfaces.append((prim, attributes.withNormalsMade(), above * placed))
        corners += extentCorners(prim.path, attributes).map(placed.transformPoint)
      }
      if surfaces.count == 1, surfaces[0].prim.path == root {
        out.append((surfaces, Self.box(extentCorners(root, surfaces[0].attributes)), surfaces[0].local))
      } else {
        out.append((surfaces, Self.box(corners), above))
      }
    }
    return out
  }

  /// Point instancer `inner` (in a prototype of the instancers `chain`) as its instances'
  /// surfaces in its own space, and its computed extent; a cycle or nesting past
  /// ``maximumInstancerNesting`` refused by name.
  private func flattened(
    _ inner: String, made: [Made], asPrototype: (Int) -> Bool, chain: [String], warnings: inout [String]
  ) throws(USDError) -> (parts: [InstancedPart], box: Box?) {
    guard !chain.contains(inner) else {
      throw USDError(
        path: layer.path, place: inner,
        reason: "a point instancer whose prototype holds the instancer itself (a cycle)")
    }
    guard chain.count < Self.maximumInstancerNesting else {
      throw USDError(
        path: layer.path, place: inner,
        reason:
          "point instancers nested more than \(Self.maximumInstancerNesting) deep in each other's prototypes")
    }
    var parts: [InstancedPart] = []
    let box = try drawInstances(
      of: inner, world: .identity, made: made, asPrototype: asPrototype, chain: chain, warnings: &warnings
    ) { prim, attributes, local throws(USDError) in
      parts.append((prim, attributes, local))
    }
    return (parts, box)
  }

  /// Whether a point instancer lies between prototype root `root` (included) and the prim at
  /// `path` (excluded).
  private func hasInstancer(between root: String, and path: String) -> Bool {
    guard path != root else { return false }
    for ancestor in Self.ancestors(of: path) {
      if primTypes[ancestor] == "PointInstancer" { return true }
      if ancestor == root { break }
    }
    return false
  }

  /// A point instancer's extent as BBoxCache takes it, as 8 corners in its own space: the
  /// authored one (Pixar's instancers carry theirs), else `computed`, its instances' box.
  func instancerExtentCorners(_ instancer: String, computed: Box?) -> [SIMD3<Double>] {
    authoredExtentCorners(instancer) { computed.map(Self.corners) ?? [] }
  }

  /// Warns in `built` of prototypes of `instancer` that are not on the stage (`asPrototype`
  /// false for their roots).
  func warnOfMissingPrototypes(_ instancer: String, presence: (String) -> Presence, in built: inout Built) {
    let offStage = prototypes(of: instancer).filter { presence($0) == .absent }
    guard !offStage.isEmpty else { return }
    built.warnings.append(
      "\(layer.path): point instancer \(instancer) names prototypes not on the stage (only an `over`, or under "
        + "a class or an inactive prim): their instances are not drawn and not in these bounds (usd-core's "
        + "BBoxCache may still bound them, from the prototype's extent or points): \(Self.list(offStage))")
  }
}
