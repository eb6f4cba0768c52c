import ARMath

extension USDStageReader {
  /// Each prim's presence and, for those on the stage, its transform in the stage's frame
  /// (``stageMatrix`` times ``worldMatrix(_:known:)``) or the error finding it: found on every
  /// core before the stage is drawn, where one thread walking the prims took a third of a
  /// 100-part USDZ's serial reading. Prims are taken in bands of neighbours, which share their
  /// ancestors; each band keeps its own transforms found, so that an ancestor's ops are
  /// evaluated once a band (at most eight times), never once a descendant.
  func presencesAndWorlds() -> (presences: [Presence], worlds: [Result<Matrix4<Double>, USDError>?]) {
    let count = prims.count, bands = Swift.max(1, Swift.min(8, count / 32))
    let found = LockedResults<(Presence, Result<Matrix4<Double>, USDError>?)>(count: count)
    let stage = stageMatrix
    forEachBand(bands, threads: bands) { band in
      var known: [String: Matrix4<Double>] = [:]
      for index in (band * count / bands)..<((band + 1) * count / bands) {
        let path = prims[index].path
        found.set(index) {
          let presence = presence(of: path)
          guard presence != .absent else { return (presence, nil) }
          do throws(USDError) {
            return (presence, .success(stage * (try worldMatrix(path, known: &known))))
          } catch {
            return (presence, .failure(error))
          }
        }
      }
    }
    // Nothing above throws: every result is a value.
    let facts = found.all().map { try! $0.get() }
    return (facts.map(\.0), facts.map(\.1))
  }
}
