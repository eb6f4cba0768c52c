/// A layer offset, as a sublayer or a reference carries it: a time code `t` of the layer it
/// brings is `offset + scale × t` in the layer that writes it. USD applies one only where it is
/// valid (both finite, the scale positive); usd-core uses no offset for another, and the
/// readers do the same with a warning (``applicable(for:in:at:notes:)``).
struct USDLayerOffset: Equatable {
  var offset = 0.0, scale = 1.0

  /// No change of time.
  static let identity = USDLayerOffset()

  /// Whether it moves time: an offset other than 0 or a scale other than 1.
  var movesTime: Bool { self != .identity }

  /// Whether USD applies it: both numbers finite and the scale positive.
  var isValid: Bool { offset.isFinite && scale.isFinite && scale > 0 }

  /// Time code `t` of the layer it brings, in the time of the layer that writes it.
  func time(_ t: Double) -> Double { offset + scale * t }

  /// This offset applied after `inner`: `inner` brings a layer into the one this offset
  /// brings, so that a time code of the innermost is `self.time(inner.time(t))` here.
  func after(_ inner: USDLayerOffset) -> USDLayerOffset {
    USDLayerOffset(offset: offset + scale * inner.offset, scale: scale * inner.scale)
  }

  /// The offset as it is applied to layer `file`, named at `place` (a line, a prim or
  /// `subLayers`) of the layer at `layer`: itself, or where it is not valid none, with a
  /// warning in `notes` (as usd-core uses none).
  func applicable(for file: String, in layer: String, at place: String, notes: inout [String])
    -> USDLayerOffset
  {
    guard !isValid else { return self }
    notes.append(
      "\(layer): \(place): the layer offset of @\(file)@ (offset \(offset), scale \(scale)) is not a valid one "
        + "(both must be finite, the scale positive) and is not applied, as usd-core applies none")
    return .identity
  }
}
