/// How much one layer's composition may take on: a layer whose internal references fan out
/// (each copy's references copied again, eight deep) could otherwise ask for billions of arcs,
/// prims or opinions. Past a limit the layer is refused, naming the referencing prim.
struct USDCompositionLimits: Sendable {
  /// The most reference, payload, inherit and specializes arcs one layer composes.
  var arcs = 100_000
  /// The most prims a composed layer holds.
  var prims = 1_000_000
  /// The most prims and opinions its grafts may walk, all told.
  var work = 50_000_000

  /// What every file is composed with.
  static let standard = USDCompositionLimits()

  /// The work of grafting `source` into `out` added to `work`; an error naming `prim` of the
  /// layer at `path` when that, or `out`'s prims, passes its limit.
  func spend(_ work: inout Int, grafting source: USDLayer, into out: USDLayer, path: String, prim: String)
    throws(USDError)
  {
    // Every graft walks its source's prims and opinions, and the prims already composed.
    work += source.prims.count + source.values.count + source.timeSamples.count + out.prims.count
    guard work <= self.work, out.prims.count <= prims else {
      throw USDError(
        path: path, place: prim,
        reason: "composes more than \(prims) prims or \(self.work) opinions through its references")
    }
  }
}
