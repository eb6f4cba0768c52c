import ARMath
import Dispatch

extension USDLayer {
  /// The prims and properties of a binary crate layer (`packagePaths` for a package's member).
  ///
  /// The attributes' default arrays (points, indices: most of a large layer's bytes) are
  /// decoded on the other cores while this thread reads the specs: each stored array once,
  /// however many attributes hold it (100 parts of one topology share their face indices).
  /// Read one after the other, the specs' walk (string-keyed, one thread) waited for the
  /// arrays, a fifth of a 100-part USDZ's serial reading. An array that does not decode there
  /// is decoded again in the layer's order, to throw its error.
  init(crate: USDCrate, packagePaths: USDPackagePaths? = nil) throws(USDError) {
    let arrays = Self.defaultArrays(of: crate)
    let decoded = LockedResults<USDValue?>(count: arrays.count)
    let specs = LockedResults<Result<(USDLayer, [(path: String, rep: UInt64)]), USDError>>(count: 1)
    let empty = USDLayer(path: crate.path, packagePaths: packagePaths)
    // Iteration 0 reads the specs; the others decode one array each, on whichever thread is free.
    DispatchQueue.concurrentPerform(iterations: arrays.count + 1) { k in
      guard k > 0 else {
        specs.set(0) {
          var (layer, deferred) = (empty, [(path: String, rep: UInt64)]())
          do throws(USDError) {
            try layer.readSpecs(of: crate, deferring: &deferred)
            return .success((layer, deferred))
          } catch {
            return .failure(error)
          }
        }
        return
      }
      decoded.set(k - 1) { try USDValue.decode(arrays[k - 1].rep, in: crate, at: arrays[k - 1].path) }
    }
    // The closure above throws nothing: its result is a value.
    let deferred: [(path: String, rep: UInt64)]
    (self, deferred) = try (try! specs.all()[0].get()).get()
    var byRep: [UInt64: USDValue] = [:]
    for (k, result) in decoded.all().enumerated() {
      guard case .success(let value?) = result else { continue }
      byRep[arrays[k].rep] = value
    }
    for (path, rep) in deferred {
      var found = byRep[rep]
      if found == nil { found = try USDValue.decode(rep, in: crate, at: path) }
      guard let value = found else { continue }
      byRep[rep] = value
      setDefault(value, of: path)
    }
  }

  /// Sets attribute `path`'s default value: what it shows at the default time, where before
  /// only its first time sample stood in (``sampledOnly``).
  mutating func setDefault(_ value: USDValue, of path: String) {
    values[path] = value
    if !sampledOnly.isEmpty { sampledOnly.remove(path) }
  }

  /// The arrays `crate`'s attributes hold as default values, each stored array once (with the
  /// first attribute that holds it, which its errors name), found by the token and bit numbers
  /// alone: no field list built a spec.
  private static func defaultArrays(of crate: USDCrate) -> [(rep: UInt64, path: String)] {
    guard let defaultToken = crate.tokens.firstIndex(of: "default") else { return [] }
    var found: [(rep: UInt64, path: String)] = [], seen = Set<UInt64>()
    for spec in crate.specs where spec.type == 1 {
      var k = spec.fieldSet
      while k < crate.fieldSets.count, crate.fieldSets[k] >= 0 {
        let field = crate.fields[crate.fieldSets[k]]
        k += 1
        guard field.name == defaultToken, field.rep & (1 << 63) != 0, seen.insert(field.rep).inserted else {
          continue
        }
        found.append((field.rep, crate.paths[spec.path]))
      }
    }
    return found
  }
}
