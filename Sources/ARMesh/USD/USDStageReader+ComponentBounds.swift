import ARMath

extension USDStageReader {
  /// The prim whose space BBoxCache bounds the prim at `path` in: its nearest ancestor whose
  /// model kind is a component or a subcomponent (what is under one is boxed in its space, and
  /// that box, turned with the component, is boxed again in the space above); nil for the
  /// stage's space.
  func boundsFrame(of path: String) -> String? {
    guard !componentPrims.isEmpty else { return nil }
    return Self.ancestors(of: path).first { componentPrims.contains($0) }
  }

  /// Takes `corners` of the prim at `path` (in its own space, placed in ARScene's frame by
  /// `world`) into `built`'s bounds, in the space BBoxCache bounds them in
  /// (``boundsFrame(of:)``).
  func includeBounds(
    _ corners: [SIMD3<Double>], of path: String, placedBy world: Matrix4<Double>, in built: inout Built
  ) {
    guard let frame = boundsFrame(of: path), let inverse = placement(of: frame, in: &built)?.inverse else {
      built.include(corners.map(world.transformPoint))
      return
    }
    let toFrame = inverse * world
    for p in corners.map(toFrame.transformPoint) {
      built.componentBoxes[frame] =
        built.componentBoxes[frame].map {
          (pointwiseMin($0.min, p), pointwiseMax($0.max, p))
        } ?? (p, p)
    }
  }

  /// Folds `built`'s component boxes into its bounds, the deepest component first: each box's
  /// corners through its component's placement, into the space above it.
  func foldComponentBounds(_ built: inout Built) {
    while let frame = built.componentBoxes.keys.max(by: { ($0.utf8.count, $1) < ($1.utf8.count, $0) }) {
      let box = built.componentBoxes.removeValue(forKey: frame)!
      // A component's box exists only where its placement was found and inverted.
      guard let world = placement(of: frame, in: &built)?.world else { continue }
      includeBounds(Self.corners(box), of: frame, placedBy: world, in: &built)
    }
  }

  /// Component `frame`'s placement in ARScene's frame and its inverse, found once a build; nil
  /// for one that cannot be inverted (what is under it is bounded in the space above instead).
  private func placement(of frame: String, in built: inout Built) -> (
    world: Matrix4<Double>, inverse: Matrix4<Double>
  )? {
    if let known = built.componentPlacements[frame] { return known }
    let world = try? stageMatrix * worldMatrix(frame)
    let found = world.flatMap { world in world.inverse.map { (world, $0) } }
    built.componentPlacements[frame] = found
    return found
  }
}
