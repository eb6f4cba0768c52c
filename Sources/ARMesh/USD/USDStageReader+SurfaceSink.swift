import ARMath

extension USDStageReader {
  /// The mesh a stage's surfaces are drawn into, with the materials bound to them and what
  /// ``build()`` reports: each surface placed, its material (or its GeomSubsets') found once.
  struct SurfaceSink {
    var geometry = GLTFGeometry()
    /// Each bound material's slot in ``geometry``'s materials, by the material's path.
    var slots: [String: Int] = [:]
    var built = Built(mesh: GLTFGeometry().mesh(), nodes: [], images: [:])
    /// Each mesh's GeomSubsets (its children of that type), by the mesh's path.
    let subsets: [String: [String]]
    /// The looks of the surfaces to be drawn, found beforehand on every core, by their paths (a
    /// surface without one has its look found as it is drawn).
    var looks: [String: SurfaceLook] = [:]

    /// A sink for `reader`'s stage.
    init(_ reader: USDStageReader) {
      var material = Material(name: "USD default")
      material.diffuse = SIMD3(0.8, 0.8, 0.8)
      geometry.materials = [material]
      geometry.textureTransforms = [nil]
      subsets = Dictionary(grouping: reader.prims.filter { $0.type == "GeomSubset" }.map(\.path)) {
        String($0[..<($0.lastASCII("/") ?? $0.startIndex)])
      }
    }

    /// Draws surface `attributes` of `prim` placed by `world`, with its material (or its
    /// GeomSubsets'), its extent in the bounds when `bounded` (false where BBoxCache bounds it
    /// by something else: a point instancer, a SkelRoot or a gprim above it).
    mutating func draw(
      _ reader: USDStageReader, _ prim: (path: String, type: String), _ attributes: GLTFPrimitiveAttributes,
      _ world: Matrix4<Double>, bounded: Bool
    ) throws(USDError) {
      built.surfaces += 1
      if bounded {
        reader.includeBounds(
          reader.extentCorners(prim.path, attributes), of: prim.path, placedBy: world, in: &built)
      }
      // A surface bound to no material (or to one ARScene cannot draw) in its display colour,
      // as Storm draws it: one colour, or white under colours at its vertices.
      let white = SIMD3<Float>(1, 1, 1)
      let surface = looks[prim.path] ?? SurfaceLook(of: prim.path, in: reader)
      let shown =
        slot(prim.path, reader) != 0
        ? nil : attributes.colors != nil ? white : surface.displayColor
      // Translucent where one display opacity below 1 applies, as Storm draws it.
      let look = shown.map { DisplayLook(colour: $0, opacity: surface.displayOpacity ?? 1) }
      if shown != nil, let warning = surface.displayOpacityWarning, !built.warnings.contains(warning) {
        built.warnings.append(warning)
      }
      // A gprim's `doubleSided` (Reality Converter writes glTF's, Blender its meshes' without
      // back-face culling): its materials drawn from both sides.
      let doubleSided = surface.isDoubleSided
      for (material, part) in try reader.facesByMaterial(
        prim, attributes, subsets: subsets[prim.path] ?? [],
        slot: { path in
          guard path == prim.path, let look else { return slot(path, reader) }
          return displaySlot(look)
        })
      {
        var part = part
        // Colours at the vertices tint only the faces drawn in the display colour.
        let tinted = look.map { $0.colour == white && material == displaySlots[$0] } ?? false
        if !tinted { part.colors = nil }
        geometry.append(
          part, world: world, mode: 4, material: doubleSided ? doubleSidedSlot(material) : material)
      }
    }

    /// Each material slot's double-sided copy, by the slot.
    private var doubleSidedSlots: [Int: Int] = [:]

    /// The slot of `slot`'s material drawn from both sides, added once.
    private mutating func doubleSidedSlot(_ slot: Int) -> Int {
      if let known = doubleSidedSlots[slot] { return known }
      var material = geometry.materials[slot]
      material.isDoubleSided = true
      geometry.materials.append(material)
      geometry.textureTransforms.append(geometry.textureTransforms[slot])
      doubleSidedSlots[slot] = geometry.materials.count - 1
      return geometry.materials.count - 1
    }

    /// A surface's display colour and opacity: what its material is made of where it is bound
    /// to none.
    struct DisplayLook: Hashable {
      var colour: SIMD3<Float>
      var opacity: Float
    }

    /// Each display colour and opacity's material slot.
    private var displaySlots: [DisplayLook: Int] = [:]

    /// The slot of the material of display colour and opacity `look`
    /// (``displayColorMaterial(_:opacity:)``), added once.
    private mutating func displaySlot(_ look: DisplayLook) -> Int {
      if let known = displaySlots[look] { return known }
      geometry.materials.append(USDStageReader.displayColorMaterial(look.colour, opacity: look.opacity))
      geometry.textureTransforms.append(nil)
      displaySlots[look] = geometry.materials.count - 1
      return geometry.materials.count - 1
    }

    /// Each prim's material slot, by the prim's path: asked for twice a surface (whether it
    /// shows its display colour, then for its faces), and resolving a binding walks the prim's
    /// ancestors.
    private var primSlots: [String: Int] = [:]

    /// The slot of the material bound to the prim at `path` (0, the default, for none, or one
    /// with no `UsdPreviewSurface`, said once in a warning).
    private mutating func slot(_ path: String, _ reader: USDStageReader) -> Int {
      if let known = primSlots[path] { return known }
      let found = materialSlot(path, reader)
      primSlots[path] = found
      return found
    }

    /// ``slot(_:_:)`` found: the bound material's, added once.
    private mutating func materialSlot(_ path: String, _ reader: USDStageReader) -> Int {
      let material = looks[path].map(\.material) ?? reader.boundMaterial(of: path)
      guard let bound = material else { return 0 }
      if let known = slots[bound] { return known }
      guard let surface = reader.previewSurface(of: bound, images: &built.images, warnings: &built.warnings)
      else {
        built.warnings.append(reader.materialWarning(bound, boundTo: path))
        slots[bound] = 0
        return 0
      }
      geometry.materials.append(surface)
      geometry.textureTransforms.append(reader.diffuseTextureTransform(ofMaterial: bound))
      slots[bound] = geometry.materials.count - 1
      return slots[bound]!
    }
  }
}
