extension USDStageReader {
  /// What a surface is drawn with, found from the stage alone: each a walk of string-keyed
  /// lookups up the prim's ancestors, so found for all surfaces on every core before they are
  /// drawn one after the other (``SurfaceSink/looks``).
  struct SurfaceLook {
    /// The material bound to it (``boundMaterial(of:)``), nil for none.
    var material: String?
    /// Its one display colour and opacity (``constantDisplayColor(_:)``,
    /// ``constantDisplayOpacity(_:)``), what it is drawn in without a material.
    var displayColor: SIMD3<Float>?, displayOpacity: Float?
    /// The warning for a display opacity that varies (``displayOpacityWarning(_:constant:)``).
    var displayOpacityWarning: String?
    /// Whether it is `doubleSided` (``isDoubleSided(_:)``).
    var isDoubleSided: Bool

    /// The look of the surface at `prim` on `reader`'s stage.
    init(of prim: String, in reader: USDStageReader) {
      material = reader.boundMaterial(of: prim)
      displayColor = reader.constantDisplayColor(prim)
      displayOpacity = reader.constantDisplayOpacity(prim)
      displayOpacityWarning = reader.displayOpacityWarning(prim, constant: displayOpacity)
      isDoubleSided = reader.isDoubleSided(prim)
    }
  }
}
