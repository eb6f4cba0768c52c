extension USDStageReader {
  /// The prims BBoxCache bounds that ARScene does not draw: UsdLux's boundable lights,
  /// skeletons, and the point-based geometry that is not a surface here (``undrawnGeometry``).
  /// Their extents as BBoxCache takes them, as 8 corners each in the prim's own space: the
  /// authored extent, else the one its schema computes; nil for other prims. (BBoxCache takes
  /// none under a boundable prim: see ``boundingAncestor(of:)``.)
  func boundsOnlyCorners(_ prim: (path: String, type: String)) -> [SIMD3<Double>]? {
    let light = Self.boundableLights.contains(prim.type)
    guard light || prim.type == "Skeleton" || Self.undrawnGeometry.contains(prim.type) else { return nil }
    return authoredExtentCorners(prim.path) {
      if prim.type == "Skeleton" { return skeletonExtentCorners(prim.path) }
      if Self.extentOnlyGeometry.contains(prim.type) { return [] }
      return light ? lightExtentCorners(prim) : pointBasedExtentCorners(prim)
    }
  }

  /// The outermost boundable prim above the prim at `path` (a gprim, a point instancer, a
  /// `SkelRoot`, a skeleton, a boundable light), if any: BBoxCache bounds that prim by its own
  /// extent and leaves everything under it out (a mesh under a mesh, a lamp under a SkelRoot),
  /// and Hydra draws no gprim under a gprim.
  func boundingAncestor(of path: String) -> (path: String, type: String)? {
    let outermost = Self.ancestors(of: path).last { primTypes[$0].map(Self.isBoundable) == true }
    return outermost.map { ($0, primTypes[$0]!) }
  }

  /// Whether prims of `type` are UsdGeomBoundable, bounded by their extents with nothing under
  /// them taken in.
  static func isBoundable(_ type: String) -> Bool {
    type == "Mesh" || type == "PointInstancer" || type == "SkelRoot" || type == "Skeleton"
      || USDImplicitShapes.types.contains(type) || undrawnGeometry.contains(type)
      || boundableLights.contains(type)
  }

  /// Geometry kinds ARScene does not draw (a warning names each such prim): curves (hair,
  /// wires), point clouds, NURBS patches, tetrahedral meshes, and, bounded by their authored
  /// extents only as usd-core computes none, volumes, particle fields (Gaussian splats) and
  /// Hydra's generative procedurals.
  static let undrawnGeometry: Set<String> = [
    "BasisCurves", "NurbsCurves", "HermiteCurves", "Points", "NurbsPatch", "TetMesh", "Volume",
    "ParticleField", "ParticleField3DGaussianSplat", "GenerativeProcedural",
  ]

  /// Of ``undrawnGeometry``, the kinds whose extent usd-core computes from nothing: without an
  /// authored one, BBoxCache bounds them as empty.
  static let extentOnlyGeometry: Set<String> = [
    "Volume", "ParticleField", "ParticleField3DGaussianSplat", "GenerativeProcedural",
  ]

  /// The lights BBoxCache bounds (UsdLux's boundable ones) by their extents.
  static let boundableLights: Set<String> = [
    "SphereLight", "RectLight", "DiskLight", "CylinderLight", "PortalLight",
  ]

  /// A boundable light's extent where none is authored, as its 8 corners: the one its schema
  /// computes from its size inputs (UsdLux's fallbacks where unauthored: a
  /// radius of 0.5, a width, height and length of 1), the light's shape in its own space. Not
  /// all lights are boundable (`DistantLight`, `DomeLight`: none).
  func lightExtentCorners(_ prim: (path: String, type: String)) -> [SIMD3<Double>] {
    /// An input's value held at float precision, as UsdLux declares it; nil when not finite.
    func input(_ name: String, _ fallback: Double) -> Double? {
      guard case .double(let x)? = value(prim.path + ".inputs:" + name) else { return fallback }
      return x.isFinite ? Double(Float(x)) : nil
    }
    let box: (min: SIMD3<Double>, max: SIMD3<Double>)
    switch prim.type {
    case "SphereLight":
      guard let r = input("radius", 0.5) else { return [] }
      box = (SIMD3(repeating: -r), SIMD3(repeating: r))
    case "DiskLight":
      guard let r = input("radius", 0.5) else { return [] }
      box = (SIMD3(-r, -r, 0), SIMD3(r, r, 0))
    case "CylinderLight":
      guard let r = input("radius", 0.5), let length = input("length", 1) else { return [] }
      box = (SIMD3(-length / 2, -r, -r), SIMD3(length / 2, r, r))
    default:  // RectLight, PortalLight
      guard let w = input("width", 1), let h = input("height", 1) else { return [] }
      box = (SIMD3(-w / 2, -h / 2, 0), SIMD3(w / 2, h / 2, 0))
    }
    // A negative size gives a box whose minimum passes its maximum: empty to BBoxCache.
    guard all(box.min .<= box.max) else { return [] }
    return Self.corners(box)
  }

  /// A point-based prim's extent as its schema computes it where none is authored: its points'
  /// box, widened for curves by half their widest `widths`, for points by half each point's
  /// width (or the one width they share).
  func pointBasedExtentCorners(_ prim: (path: String, type: String)) -> [SIMD3<Double>] {
    guard case .vectors(let points)? = value(prim.path + ".points"), !points.isEmpty,
      points.allFinite
    else { return [] }
    // In single precision, as the schema computes an extent (a float3[] attribute).
    var widths: [Float] = []
    if case .doubles(let found)? = value(prim.path + ".widths") { widths = found.map { Float($0) } }
    guard widths.allSatisfy(\.isFinite) else { return [] }
    let widest = widths.max() ?? 0
    var (low, high) = (SIMD3<Float>(points[0]), SIMD3<Float>(points[0]))
    for (k, p) in points.enumerated() {
      let reach: Float
      switch (prim.type, widths.count) {
      case ("Points", points.count): reach = widths[k] / 2
      case ("Points", 1): reach = widths[0] / 2
      case ("BasisCurves", _), ("NurbsCurves", _), ("HermiteCurves", _): reach = widest / 2
      default: reach = 0
      }
      low = pointwiseMin(low, SIMD3<Float>(p) - SIMD3(repeating: reach))
      high = pointwiseMax(high, SIMD3<Float>(p) + SIMD3(repeating: reach))
    }
    return Self.corners((SIMD3<Double>(low), SIMD3<Double>(high)))
  }
}
