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

    /// A sink for `reader`'s stage.
    init(_ reader: USDStageReader) {
      var material = Material(name: "USD default")
      material.diffuse = SIMD3(0.8, 0.8, 0.8)
      geometry.materials = [material]
      geometry.textureTransforms = [nil]
      subsets = Dictionary(grouping: reader.prims.filter { $0.type == "GeomSubset" }.map(\.path)) {
        String($0[..<($0.lastIndex(of: "/") ?? $0.startIndex)])
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
        built.include(reader.extentCorners(prim.path, attributes).map(world.transformPoint))
      }
      for (material, part) in try reader.facesByMaterial(
        prim, attributes, subsets: subsets[prim.path] ?? [], slot: { slot($0, reader) })
      {
        geometry.append(part, world: world, mode: 4, material: material)
      }
    }

    /// The slot of the material bound to the prim at `path` (0, the default, for none, or one
    /// with no `UsdPreviewSurface`, said once in a warning).
    private mutating func slot(_ path: String, _ reader: USDStageReader) -> Int {
      guard let bound = reader.boundMaterial(of: path) else { return 0 }
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
