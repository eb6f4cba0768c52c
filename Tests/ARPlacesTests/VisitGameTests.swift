import ARGeo
import ARPlaces
import ARTestSupport
import Testing

/// The visit game: an ordered tour, visits on entry or dwell, the next stop wrapping round,
/// and a state that survives a restart.
@Suite("Visit game")
struct VisitGameTests {
  static func event(_ id: String, _ kind: GeofenceEvent.Kind, at time: Double) -> GeofenceEvent {
    GeofenceEvent(id: id, name: nil, kind: kind, time: time, latitude: 0, longitude: 0, distanceMetres: -1)
  }

  @Test(
    "visits in any order; the next stop is the first unvisited from the one the player was sent to, wrapping round"
  )
  func tour() {
    var game = VisitGame(stops: ["a", "b", "c", "d"])
    #expect(game.nextStop == "a" && game.progress == (0, 4) && !game.isComplete)
    #expect(game.take([Self.event("b", .enter, at: 1)]) == ["b"])
    #expect(game.nextStop == "a")  // b was not where the player was sent
    game.take([Self.event("a", .enter, at: 2)])
    #expect(game.nextStop == "c")  // sent on past a; b is done
    game.take([
      Self.event("d", .enter, at: 3), Self.event("d", .enter, at: 4), Self.event("x", .enter, at: 5),
    ])
    #expect(game.nextStop == "c" && game.progress == (3, 4))
    game.take([Self.event("c", .exit, at: 6), Self.event("c", .dwell, at: 7)])
    #expect(game.progress.visited == 3)  // entries count, not exits or dwells
    #expect(game.take([Self.event("c", .enter, at: 8)]) == ["c"])
    #expect(game.isComplete && game.nextStop == nil)
    #expect(game.visits.map(\.id) == ["b", "a", "d", "c"] && game.visits.map(\.time) == [1, 2, 3, 8])
    // Wrapping: sent to the last stop, the next after it is the first unvisited from the start.
    var wrap = VisitGame(stops: ["a", "b", "c"])
    wrap.take([Self.event("a", .enter, at: 1), Self.event("b", .enter, at: 2)])
    #expect(wrap.nextStop == "c")
    var other = VisitGame(stops: ["a", "b", "c"])
    other.take([Self.event("a", .dwell, at: 1)], rule: .dwell)
    other.take([Self.event("b", .enter, at: 2), Self.event("c", .enter, at: 3)], rule: .dwell)
    #expect(other.progress.visited == 1 && other.nextStop == "b")
  }

  @Test("a game saved half way and read back goes on as if never stopped; a state for other stops is refused")
  func survivesRestart() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/game.json"
    let stops = ["s1", "s2", "s3", "s4", "s5"]
    let events = [("s2", 1.0), ("s1", 2), ("s5", 3), ("s3", 4), ("s4", 5)].map {
      Self.event($0.0, .enter, at: $0.1)
    }
    var whole = VisitGame(stops: stops)
    whole.take(events)
    var before = try VisitGame.read(path: path, stops: stops)  // no file yet: a new game
    before.take(Array(events.prefix(3)))
    try before.write(to: path)
    var after = try VisitGame.read(path: path, stops: stops)
    #expect(after == before && after.nextStop == "s3")
    after.take(Array(events.dropFirst(3)))
    #expect(after == whole && after.isComplete)
    #expect { _ = try VisitGame.read(path: path, stops: ["s1", "s2"]) } throws: { "\($0)".contains("stops") }
  }

  @Test("the game's stops are a site guide's hasGeoGame ones, in order")
  func fromSiteGuide() throws {
    let places = try PlaceSet.read(path: Fixtures.path("../../Scenes/data/zavist-stops.json")).places
    let game = VisitGame(places: places)
    #expect(
      game.stops == places.filter(\.inGame).map(\.id) && game.stops.count == 9
        && game.stops.first == "zavist-01")
  }
}
