import ARGeo
import ARPlaces
import ARTestSupport
import Testing

/// Places files as the site guide and GIS tools write them.
@Suite("Places files")
struct PlaceSetTests {
  @Test("the site guide's stops: ids, labels, names, heights and which are in the game")
  func siteGuide() throws {
    let set = try PlaceSet.read(path: Fixtures.path("../../Scenes/data/zavist-stops.json"))
    #expect(set.places.count == 13 && set.paths.isEmpty)
    #expect(set.places.map(\.label) == (1...13).map { String($0) })
    #expect(
      set.places[0].id == "zavist-01" && set.places[0].name == "Main gate"
        && set.places[0].coordinate.height == 437)
    #expect(set.places.map(\.inGame) == (0..<13).map { $0 % 3 != 2 })
  }

  @Test("GeoJSON: Point features are places, the LineString a path, in file order")
  func geoJSON() throws {
    let set = try PlaceSet.read(path: Fixtures.path("../../Scenes/data/zavist-site.geojson"))
    let guide = try PlaceSet.read(path: Fixtures.path("../../Scenes/data/zavist-stops.json"))
    #expect(set.places.map(\.id) == guide.places.map(\.id))
    #expect(set.places.map(\.coordinate) == guide.places.map(\.coordinate))
    #expect(set.paths.count == 1 && set.paths[0].id == "walk" && set.paths[0].coordinates.count == 14)
    #expect(set.paths[0].name == "Tour path")
    #expect(set.areas.count == 1 && set.areas[0].id == "precinct" && set.areas[0].ring.count == 4)
  }

  @Test("errors name the file and the JSON path of the field")
  func errors() {
    for (file, field) in [
      ("latitude_out_of_range.geojson", "features[2].geometry.coordinates"),
      ("missing_coordinates.geojson", "features[0].geometry.coordinates"),
      ("stop_bad_lon.json", "[1].location.lon"),
      ("open_ring.geojson", "features[0].geometry.coordinates[0]"),
      ("krovak.geojson", "crs"),  // in a national grid, and no conversion given
    ] {
      #expect {
        _ = try PlaceSet.read(path: Fixtures.path("places/" + file))
      } throws: { error in
        guard case .invalid(let path, let at, _) = error as? PlaceFileError else { return false }
        return path.hasSuffix(file) && at == field
      }
    }
  }
}
