import ARFiles

/// A composition arc a prim names: a reference or payload (another layer, or this one with
/// `file` empty), or an inherit or specializes arc (``USDLayer/inheritArc``), with the layer
/// offset that maps the layer it brings into the time of the layer that wrote it.
struct USDArc {
  /// The asset path as written: empty for this layer stack, ``USDLayer/inheritArc`` for a class.
  var file: String
  /// The prim it names; empty for the layer's default prim.
  var prim: String
  /// The arc's layer offset as it applies (none where the one written is not valid), then
  /// (``USDLayer/retimed(toRate:by:internalArcs:)``) with the mapping of the sublayer that wrote
  /// it applied after it.
  var timing = USDLayerOffset.identity
  /// The time codes a second of the layer that wrote the arc (nil until that layer is merged
  /// into a stack; then the stack's own): the arc's times are scaled by it over the rate of the
  /// layer it brings, as USD scales them.
  var rate: Double? = nil

  /// Whether it names the same layer and prim as `other` (a list op's item to delete): the
  /// files compared as paths (`./a.usda` and `sub/../a.usda` are one), offsets not compared.
  func isSame(as other: USDArc) -> Bool {
    prim == other.prim
      && (file == other.file || PathNames.lexicallyNormal(file) == PathNames.lexicallyNormal(other.file))
  }

  /// An arc to `prim` of `file` without a layer offset.
  init(file: String, prim: String, timing: USDLayerOffset = .identity) {
    (self.file, self.prim, self.timing) = (file, prim, timing)
  }
}
