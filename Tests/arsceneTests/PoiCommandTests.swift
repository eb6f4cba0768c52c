import ARGeo
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// `arscene poi near`: its contract (one JSON line a place, nearest first, the four keys) on the
/// site guide's stops and on GeoJSON, and bad files named by feature and field.
@Suite("arscene poi")
struct PoiCommandTests {
  struct Line: Decodable {
    var id: String
    var name: String?
    var distance_m: Double
    var bearing_deg: Double
  }

  static func lines(_ text: String) throws -> [Line] {
    try text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
  }

  @Test("the site guide's stops within 25 m of the gate, nearest first, with geodesic distances and bearings")
  func nearTheGate() throws {
    let outcome = try ArsceneRunner.run([
      "poi", "near", "--at", "49.9587,14.3953", "--radius", "25", "Scenes/data/zavist-stops.json",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let found = try Self.lines(outcome.stdout)
    #expect(found.map(\.id) == ["zavist-01", "zavist-02", "zavist-03", "zavist-04"])
    #expect(found.map(\.name) == ["Main gate", "House 1", "House 2", "House 3"])
    #expect(zip(found, found.dropFirst()).allSatisfy { $0.distance_m <= $1.distance_m })
    // House 1 stands 9 m west and 18 m north of the gate (Scenes/zavist.json).
    let house = GeodeticCoordinate(latitudeDegrees: 49.958861818199, longitudeDegrees: 14.39517458512)
    let line = try Geodesic().inverse(
      from: GeodeticCoordinate(latitudeDegrees: 49.9587, longitudeDegrees: 14.3953), to: house)
    #expect(
      abs(found[1].distance_m - line.distance) < 1e-9
        && abs(found[1].distance_m - (81.0 + 324).squareRoot()) < 0.01)
    #expect(abs(found[1].bearing_deg - (line.initialBearingDegrees + 360)) < 1e-9)
    // Every line has exactly the four keys.
    let first =
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.split(separator: "\n")[0].utf8))
      as! [String: Any]
    #expect(Set(first.keys) == ["id", "name", "distance_m", "bearing_deg"])
    // --max: the nearest only.
    let two = try ArsceneRunner.run([
      "poi", "near", "--at", "49.9587,14.3953", "--radius", "25", "--max", "2",
      "Scenes/data/zavist-site.geojson",
    ])
    #expect(try Self.lines(two.stdout).map(\.id) == ["zavist-01", "zavist-02"])
    // --threads builds the index on that many threads; the lines are the same.
    for threads in ["1", "3"] {
      let threaded = try ArsceneRunner.run([
        "poi", "near", "--at", "49.9587,14.3953", "--radius", "25", "--threads", threads,
        "Scenes/data/zavist-stops.json",
      ])
      #expect(threaded.stdout == outcome.stdout)
    }
  }

  @Test(
    "a GeoJSON id is the feature's id, else properties.id, else the feature's index; a missing name is null")
  func geoJSONIdentifiers() throws {
    let outcome = try ArsceneRunner.run([
      "poi", "near", "--at", "50,14.4", "--radius", "5000", Fixtures.path("places/ids.geojson"),
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let found = try Self.lines(outcome.stdout)
    #expect(found.map(\.id) == ["7", "b", "2"])
    #expect(found.map(\.name) == ["Seven", nil, nil])
    #expect(outcome.stdout.contains(#""name":null"#))
  }

  @Test(
    "a bad places file is an error naming the file, the feature and the field, exit 2; a bad option exits 64",
    arguments: [
      ("places/latitude_out_of_range.geojson", [String](), "features[2].geometry.coordinates: latitude 91"),
      ("places/missing_coordinates.geojson", [], "features[0].geometry.coordinates"),
      ("places/stop_bad_lon.json", [], "[1].location.lon: expected a finite number"),
      ("places/not_json.geojson", [], "not valid JSON"),
      ("places/ids.geojson", ["--radius", "-5"], "--radius"),
      ("places/ids.geojson", ["--at", "95,14"], "--at"),
    ])
  func badInput(_ file: String, _ options: [String], _ message: String) throws {
    var arguments = ["poi", "near", "--at", "50,14.4", "--radius", "100", Fixtures.path(file)]
    for pair in stride(from: 0, to: options.count, by: 2) {
      let at = arguments.firstIndex(of: options[pair])!
      arguments[at + 1] = options[pair + 1]
    }
    let outcome = try ArsceneRunner.run(arguments)
    let expected: Int32 = options.isEmpty ? 2 : 64
    #expect(outcome.status == expected && outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(outcome.stdout.isEmpty)
  }

  @Test(
    "replay: a simulated walk past the site's stops enters each once; with --history a second run alerts nothing"
  )
  func replay() throws {
    let folder = try TemporaryFolder()
    let walk = folder.path + "/walk.jsonl", history = folder.path + "/history.json"
    let simulated = try ArsceneRunner.run([
      "simulate", "--scene", "Scenes/zavist.json", "--seed", "5", "--duration", "120", "-o", walk,
    ])
    #expect(simulated.status == 0, "\(simulated.stderr)")
    let arguments = [
      "poi", "replay", walk, "Scenes/data/zavist-stops.json", "--radius", "15", "--history", history,
    ]
    let first = try ArsceneRunner.run(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    struct Event: Decodable { var id: String, event: String, time: Double, distance_m: Double }
    let events = try first.stdout.split(separator: "\n").map {
      try JSONDecoder().decode(Event.self, from: Data($0.utf8))
    }
    let enters = events.filter { $0.event == "enter" }
    #expect(
      Set(enters.map(\.id)) == ["zavist-01", "zavist-02", "zavist-03", "zavist-04"] && enters.count == 4)
    #expect(
      enters.allSatisfy { $0.distance_m < 0 }
        && zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    let second = try ArsceneRunner.run(arguments)
    #expect(second.status == 0 && second.stdout.isEmpty, "\(second.stdout)")
    // The site's GeoJSON adds the gate precinct, a polygon: entered too.
    let site = try ArsceneRunner.run([
      "poi", "replay", walk, "Scenes/data/zavist-site.geojson", "--radius", "15",
    ])
    #expect(site.stdout.contains(#""event":"enter","id":"precinct""#), "\(site.stdout)")
    // A GPX whose time runs backwards: exit 2, naming the line; the history untouched.
    let before = try String(contentsOfFile: history, encoding: .utf8)
    let gpx = try folder.write(
      "<gpx><trk><trkseg>\n<trkpt lat=\"49.9587\" lon=\"14.3953\"><time>2026-05-30T08:12:03Z</time></trkpt>\n"
        + "<trkpt lat=\"49.9588\" lon=\"14.3954\"><time>2026-05-30T08:12:01Z</time></trkpt>\n</trkseg></trk></gpx>\n",
      to: "back.gpx")
    let bad = try ArsceneRunner.run([
      "poi", "replay", gpx, "Scenes/data/zavist-stops.json", "--history", history,
    ])
    #expect(bad.status == 2 && bad.stderr.contains("back.gpx: line 3"), "\(bad.stderr)")
    #expect(try String(contentsOfFile: history, encoding: .utf8) == before)
  }

  @Test("game: the walk's visits to the game's stops, kept across runs in the state file")
  func game() throws {
    let folder = try TemporaryFolder()
    let walk = folder.path + "/walk.jsonl", state = folder.path + "/game.json"
    _ = try ArsceneRunner.run([
      "simulate", "--scene", "Scenes/zavist.json", "--seed", "5", "--duration", "120", "-o", walk,
    ])
    let arguments = [
      "poi", "game", walk, "Scenes/data/zavist-stops.json", "--state", state, "--radius", "15",
    ]
    struct Report: Decodable {
      struct Progress: Decodable { var visited: Int, total: Int }
      var complete: Bool, next: String?, progress: Progress, newly_visited: [String]
    }
    let first = try ArsceneRunner.run(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    let report = try JSONDecoder().decode(Report.self, from: Data(first.stdout.utf8))
    // House 2 (stop 3) is not in the game; the walk passes the gate and houses 1 and 3.
    #expect(
      Set(report.newly_visited) == ["zavist-01", "zavist-02", "zavist-04"] && report.progress.total == 9)
    #expect(!report.complete && report.next == "zavist-05")
    let again = try JSONDecoder().decode(
      Report.self, from: Data(try ArsceneRunner.run(arguments).stdout.utf8))
    #expect(again.newly_visited.isEmpty && again.progress.visited == 3)
    let bad = try ArsceneRunner.run(arguments + ["--on", "arrival"])
    #expect(bad.status == 64 && bad.stderr.contains("--on"), "\(bad.stderr)")
  }

  @Test("arscene poi map writes the SVG and the PNG; with nothing to draw it is an error")
  func command() throws {
    let folder = try TemporaryFolder()
    let outcome = try ArsceneRunner.run([
      "poi", "map", "Scenes/data/zavist-stops.json", "-o", folder.path + "/map.svg", "--png",
      folder.path + "/map.png",
      "--size", "640,480",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let png = try ImageFile.readRGBA8(folder.path + "/map.png")
    #expect(png.width == 640 && png.height == 480)
    #expect(try String(contentsOfFile: folder.path + "/map.svg", encoding: .utf8).contains("Museum hut"))
    let empty = try folder.write(#"{"type": "FeatureCollection", "features": []}"#, to: "empty.geojson")
    let bad = try ArsceneRunner.run(["poi", "map", empty, "-o", folder.path + "/empty.svg"])
    #expect(bad.status == 2 && bad.stderr.contains("nothing to draw"), "\(bad.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/empty.svg"))
  }

  @Test(
    "a GeoJSON file in S-JTSK (its crs member) converts through PROJ: Old Town Square where cs2cs puts it")
  func projectedPlaces() throws {
    let outcome = try ArsceneRunner.run([
      "poi", "near", "--at", "50.088571828458,14.432438165449", "--radius", "150",
      Fixtures.path("places/krovak.geojson"),
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let found = try Self.lines(outcome.stdout)
    #expect(found.map(\.id) == ["square", "east"])
    // The grid's scale factor is near 1.
    #expect(found[0].distance_m < 1e-3 && abs(found[1].distance_m - 100) < 0.5)
    #expect(abs(found[1].bearing_deg - 90) < 10)
  }
}
