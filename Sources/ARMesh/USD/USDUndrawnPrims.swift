/// The prims on a USD stage that draw nothing, by reason, for the warnings that name them
/// (nothing is left out without a word).
struct UndrawnPrims {
  /// Surfaces not drawn, by reason (`invisible`, `of purpose guide`, ``sampledPoints``).
  var hidden: [String: [String]] = [:]
  /// Meshes whose points are missing or not 3-vectors.
  var pointless: [String] = []
  /// Meshes with points and no faces.
  var faceless: [String] = []
  /// Prims of kinds ARScene does not draw (curves, points), each as `path (type)`.
  var kinds: [String] = []
  /// Surfaces drawn under another boundable prim, which BBoxCache leaves out, each as
  /// `path (under ancestor)`.
  var nested: [String] = []
  /// AR Quick Look's 3-D text (`Preliminary_Text`, Apple's schema, which Reality Composer
  /// writes): the phone draws it; usd-core does not know the type and draws nothing.
  var arText: [String] = []

  /// The reason for a mesh whose points are only in time samples, read at the default time.
  static let sampledPoints =
    "their points only in time samples, none at the default time (give --time; USD's renderers draw "
    + "nothing of them, BBoxCache and these bounds take their authored extents)"

  /// One warning for each kind of prim left out, prefixed with the layer's `path`.
  func warnings(_ path: String) -> [String] {
    var out: [String] = []
    func plural(_ n: Int, _ one: String, _ many: String) -> String { "\(n) \(n == 1 ? one : many)" }
    if !kinds.isEmpty {
      out.append(
        "\(path): \(plural(kinds.count, "prim", "prims")) of a kind ARScene does not draw (curves, points, NURBS "
          + "patches, tetrahedral meshes, volumes, particle fields, generative procedurals; BBoxCache, and these "
          + "bounds, take their extents): "
          + USDStageReader.list(kinds))
    }
    if !pointless.isEmpty {
      out.append(
        "\(path): \(plural(pointless.count, "mesh", "meshes")) not drawn, without points that are 3-vectors (USD's "
          + "renderers draw nothing of them; BBoxCache, and these bounds, take their authored extents): "
          + USDStageReader.list(pointless))
    }
    if !faceless.isEmpty {
      out.append(
        "\(path): \(plural(faceless.count, "mesh", "meshes")) not drawn, with points but no faceVertexCounts and "
          + "faceVertexIndices (USD's renderers draw nothing of them; BBoxCache, and these bounds, take their "
          + "extents, else their points): \(USDStageReader.list(faceless))")
    }
    for (why, paths) in hidden.sorted(by: { $0.key < $1.key }) {
      // A reason that says how BBoxCache takes them stands alone.
      let usd = why.contains("BBoxCache") ? "" : " (as USD's renderers and BBoxCache leave them out)"
      out.append(
        "\(path): \(plural(paths.count, "surface", "surfaces")) not drawn, \(why)\(usd): "
          + USDStageReader.list(paths))
    }
    if !arText.isEmpty {
      out.append(
        "\(path): \(plural(arText.count, "prim", "prims")) of AR Quick Look's 3-D text (Preliminary_Text) not "
          + "drawn: the phone draws its text, usd-core (whose stage these bounds follow) and ARScene do not: "
          + USDStageReader.list(arText))
    }
    if !nested.isEmpty {
      out.append(
        "\(path): \(plural(nested.count, "surface", "surfaces")) under another boundable prim (a gprim, a light, a "
          + "point instancer), drawn; BBoxCache, and these bounds, leave them out, and USD's Hydra draws no gprim "
          + "under a gprim: \(USDStageReader.list(nested))")
    }
    return out
  }
}
