import ARGeo
import ARMarkers

extension SceneResolver {
  /// The scene's `control_points`, validated: finite places on Earth, unique names, a positive
  /// σ of at most 100 m, markers of a known dictionary, with one of its ids and a positive size of at most 10 m.
  func controlPoints() throws(SceneError) -> [ControlPoint] {
    var points: [ControlPoint] = []
    for (i, entry) in (file.controlPoints ?? []).enumerated() {
      let field = "control_points[\(i)]"
      guard !entry.name.isEmpty else { throw fail(field + ".name", "empty: a control point needs a name") }
      guard !points.contains(where: { $0.name == entry.name }) else {
        throw fail(field + ".name", "'\(entry.name.prefix(60))' names two control points")
      }
      let g = entry.geo
      let h = try height(g.height, altitudeMSL: g.altitudeMSL, g.latitude, g.longitude, field + ".geo")
      let coordinate: GeodeticCoordinate
      do {
        coordinate = try GeodeticCoordinate(
          latitudeDegrees: g.latitude, longitudeDegrees: g.longitude, height: h
        )
        .validated()
      } catch { throw fail(field + ".geo", error.description) }
      let sigma = entry.sigmaM ?? 0.02
      guard sigma.isFinite, sigma > 0, sigma <= 100 else {
        throw fail(field + ".sigma_m", "\(sigma) must be a σ in metres, above 0 and at most 100")
      }
      guard entry.headingDeg?.isFinite ?? true else {
        throw fail(field + ".heading_deg", "not a finite number")
      }
      var marker: ControlPoint.Marker?
      if let m = entry.marker {
        guard m.size.isFinite, m.size > 0, m.size <= 10 else {
          throw fail(
            field + ".marker.size", "\(m.size) must be the marker's side in metres, above 0 and at most 10")
        }
        guard let dictionary = MarkerDictionary.named(m.dictionary) else {
          let known = MarkerDictionary.all.map(\.name).joined(separator: ", ")
          throw fail(field + ".marker.dictionary", "'\(m.dictionary.prefix(60))' is none of \(known)")
        }
        guard dictionary.codes.indices.contains(m.id) else {
          throw fail(
            field + ".marker.id", "\(dictionary.name) has ids 0 to \(dictionary.codes.count - 1), not \(m.id)"
          )
        }
        marker = ControlPoint.Marker(
          dictionary: m.dictionary, id: m.id, size: m.size, heading: .degrees(entry.headingDeg ?? 0))
      } else if entry.headingDeg != nil {
        throw fail(field + ".heading_deg", "only a marker has a heading")
      }
      points.append(ControlPoint(name: entry.name, coordinate: coordinate, sigma: sigma, marker: marker))
    }
    return points
  }
}
