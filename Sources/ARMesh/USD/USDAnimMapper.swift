/// How UsdSkel hands an animation's values (in the animation's order of names) to the names a
/// skeleton or mesh lists (its own order), as usd-core's `UsdSkelAnimMapper` does, duplicate
/// names included: where the animation's names run, in order, inside the target's from the
/// place of its first name, each value goes to that place; otherwise each goes to the last
/// place the target lists its name at, a later value for the same place replacing an earlier.
/// Places no name reaches take `fallback`.
enum USDAnimMapper {
  static func remap<T>(_ values: [T], from source: [String], to target: [String], fallback: T) -> [T] {
    var out = [T](repeating: fallback, count: target.count)
    guard let first = source.first, values.count == source.count else { return out }
    if let start = target.firstIndex(of: first), start + source.count <= target.count,
      target[start..<(start + source.count)].elementsEqual(source)
    {
      for (k, value) in values.enumerated() { out[start + k] = value }
      return out
    }
    var place: [String: Int] = [:]
    for (k, name) in target.enumerated() { place[name] = k }
    for (name, value) in zip(source, values) {
      if let k = place[name] { out[k] = value }
    }
    return out
  }
}
