import ARMath

extension USDStageReader {
  /// What the drawing of the stage needs of one prim, found before it on every core.
  struct PrimFacts {
    /// Whether the prim is on the stage and drawn.
    var presence: Presence
    /// For a prim on the stage, its transform in the stage's frame (``stageMatrix`` times
    /// ``worldMatrix(_:known:)``) or the error finding it; nil for an absent prim, as for
    /// everything below.
    var world: Result<Matrix4<Double>, USDError>?
    /// Its outermost boundable ancestor (``boundingAncestor(of:)``).
    var bounding: (path: String, type: String)?
    /// Whether a point instancer is among its ancestors (``isUnderInstancer(_:)``).
    var underInstancer = false
    /// Its transform ops listed in `xformOpOrder` with no value, and those only in time
    /// samples (read at the default time), as `prim.op` keys.
    var valuelessOps: [String] = [], sampledOps: [String] = []
  }

  /// Every prim's ``PrimFacts``, in the prims' order: found on every core before the stage is
  /// drawn, where one thread walking the prims (their presences, transforms, ancestors and
  /// transform ops, each a string-keyed walk) took two fifths of a 100-part USDZ's serial
  /// reading. Prims are taken in bands of neighbours, which share their ancestors; each band
  /// keeps its own transforms found, so that an ancestor's ops are evaluated once a band (at
  /// most eight times), never once a descendant.
  func primFacts() -> [PrimFacts] {
    let count = prims.count, bands = Swift.max(1, Swift.min(8, count / 32))
    let found = LockedResults<PrimFacts>(count: count)
    let stage = stageMatrix
    forEachBand(bands, threads: bands) { band in
      var known: [String: Matrix4<Double>] = [:]
      for index in (band * count / bands)..<((band + 1) * count / bands) {
        let path = prims[index].path
        found.set(index) {
          var facts = PrimFacts(presence: presence(of: path))
          guard facts.presence != .absent else { return facts }
          do throws(USDError) {
            facts.world = .success(stage * (try worldMatrix(path, known: &known)))
          } catch {
            facts.world = .failure(error)
          }
          facts.bounding = boundingAncestor(of: path)
          facts.underInstancer = isUnderInstancer(path)
          (facts.valuelessOps, facts.sampledOps) = identityOps(of: path)
          return facts
        }
      }
    }
    // Nothing above throws: every result is a value.
    return found.all().map { try! $0.get() }
  }

  /// The transform ops prim `path` lists in `xformOpOrder` that read as the identity: those
  /// with no value, and (at the default time) those only in time samples.
  private func identityOps(of path: String) -> (valueless: [String], sampled: [String]) {
    var (valueless, sampled): ([String], [String]) = ([], [])
    guard case .tokens(let order)? = values[path + ".xformOpOrder"] else { return ([], []) }
    for key in order.compactMap(USDTransformOps.opName).map({ path + "." + $0 }) {
      if timeCode == nil, isSampledOnly(key) {
        sampled.append(key)
      } else if value(key) == nil {
        valueless.append(key)
      }
    }
    return (valueless, sampled)
  }

  /// Warnings of the transform ops the prims on the stage list that read as the identity
  /// (``PrimFacts/valuelessOps``, ``PrimFacts/sampledOps``), as usd-core takes them.
  func identityOpsWarnings(_ facts: [PrimFacts]) -> [String] {
    let valueless = facts.flatMap(\.valuelessOps), sampled = facts.flatMap(\.sampledOps)
    func ops(_ n: Int) -> String { "\(n) transform op\(n == 1 ? "" : "s")" }
    var out: [String] = []
    if !valueless.isEmpty {
      out.append(
        "\(layer.path): \(ops(valueless.count)) listed in xformOpOrder with no value, the identity as usd-core "
          + "takes them: \(Self.list(valueless))")
    }
    if !sampled.isEmpty {
      out.append(
        "\(layer.path): \(ops(sampled.count)) only in time samples, the identity at the default time as usd-core "
          + "takes them (give --time): \(Self.list(sampled))")
    }
    return out
  }
}
