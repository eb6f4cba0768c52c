/// What composition left out of prims' arcs, one line for all the prims that say the same: a
/// scatter of ten thousand instances, each naming a prototype the file does not hold (as
/// Blender 4.2 writes geometry-nodes instances), is one warning, not ten thousand.
struct USDArcNotes {
  /// The prims of each note, by the note (what follows a prim's path), and the notes in the
  /// order they were first met.
  private var prims: [String: [String]] = [:]
  private var order: [String] = []

  /// Notes `what` (from "references …") of `prim`.
  mutating func add(_ prim: String, _ what: String) {
    if prims[what] == nil { order.append(what) }
    prims[what, default: []].append(prim)
  }

  /// The notes as warnings of the layer at `path`: each naming its prim, or its first prim and
  /// how many more say the same.
  func lines(in path: String) -> [String] {
    order.map { what in
      let list = prims[what, default: []]
      let who = list.count == 1 ? list[0] : "\(list[0]) and \(list.count - 1) more prims, each"
      return "\(path): \(who): \(what)"
    }
  }
}
