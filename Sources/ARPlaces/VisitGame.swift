import Foundation

/// The site guide's geocaching-style game: an ordered tour of stops, each visited on entering
/// its geofence (or after lingering in it), with progress, completion and the next stop to
/// head for, kept in a small file so that it survives the app's restart.
public struct VisitGame: Sendable, Equatable {
  /// The tour: the game's stops' ids in order.
  public let stops: [String]
  /// Visited stops with the time of the visit (seconds since 1970), in the order visited.
  public private(set) var visits: [(id: String, time: Double)]
  /// The stop the player was last sent to, as an index into ``stops``.
  public private(set) var target: Int

  /// How a stop counts as visited.
  public enum Rule: String, Sendable, CaseIterable {
    /// On entering its geofence.
    case entry
    /// On lingering in it (the monitor's dwell).
    case dwell
  }

  /// A new game over the stops of `places` that are in the game, in their order.
  public init(places: [PointOfInterest]) {
    self.init(stops: places.filter(\.inGame).map(\.id))
  }

  /// A new game over `stops` (ids, in tour order).
  public init(stops: [String]) {
    self.stops = stops
    visits = []
    target = 0
  }

  /// Visited stops and all stops.
  public var progress: (visited: Int, total: Int) { (visits.count, stops.count) }
  /// Whether every stop has been visited.
  public var isComplete: Bool { !stops.isEmpty && visits.count == stops.count }
  /// Whether `id` has been visited.
  public func hasVisited(_ id: String) -> Bool { visits.contains { $0.id == id } }

  /// The stop to head for: the target if not yet visited, else the next unvisited one after it
  /// in tour order, wrapping around to the start; nil once the game is complete.
  public var nextStop: String? {
    guard !stops.isEmpty else { return nil }
    for step in 0..<stops.count {
      let id = stops[(target + step) % stops.count]
      if !hasVisited(id) { return id }
    }
    return nil
  }

  /// Takes a monitor's events: a game stop's `enter` (or `dwell`, by `rule`) visits it, once.
  /// Returns the stops newly visited. Visiting the target moves it on to the next stop.
  @discardableResult
  public mutating func take(_ events: [GeofenceEvent], rule: Rule = .entry) -> [String] {
    var visited: [String] = []
    for event in events where event.kind == (rule == .entry ? .enter : .dwell) {
      guard let at = stops.firstIndex(of: event.id), !hasVisited(event.id) else { continue }
      visits.append((event.id, event.time))
      visited.append(event.id)
      // Reaching the stop the player was sent to sends them on to the one after it.
      if at == target { target = (at + 1) % stops.count }
    }
    return visited
  }

  public static func == (a: VisitGame, b: VisitGame) -> Bool {
    a.stops == b.stops && a.target == b.target && a.visits.count == b.visits.count
      && zip(a.visits, b.visits).allSatisfy { $0.id == $1.id && $0.time == $1.time }
  }

  // MARK: The state file

  private struct File: VersionedState {
    static let currentFormat = (name: "arscene-visit-game", version: 1)
    var format = currentFormat.name
    var version = currentFormat.version
    var stops: [String]
    var visits: [Visit]
    var target: Int
    struct Visit: Codable {
      var id: String
      var time: Double
    }
  }

  /// The game saved in `path`, or a new one over `stops` when the file does not exist.
  ///
  /// - Throws: ``PlaceFileError`` for an unreadable file, or a saved game over other stops than
  ///   `stops` (the site's game changed: start a new state file).
  public static func read(path: String, stops: [String]) throws(PlaceFileError) -> VisitGame {
    guard let file = try StateFile.read(File.self, path: path) else { return VisitGame(stops: stops) }
    guard file.stops == stops else {
      throw .invalid(
        path: path, field: "stops", reason: "the saved game's stops differ from the places file's game stops")
    }
    guard file.stops.isEmpty ? file.target == 0 : (0..<file.stops.count).contains(file.target) else {
      throw .invalid(path: path, field: "target", reason: "not an index into stops")
    }
    var game = VisitGame(stops: stops)
    for visit in file.visits {
      guard stops.contains(visit.id), !game.hasVisited(visit.id) else {
        throw .invalid(
          path: path, field: "visits", reason: "'\(visit.id)' is not a stop, or is visited twice")
      }
      game.visits.append((visit.id, visit.time))
    }
    game.target = file.target
    return game
  }

  /// Saves the game to `path`, atomically.
  public func write(to path: String) throws(PlaceFileError) {
    let file = File(stops: stops, visits: visits.map { File.Visit(id: $0.id, time: $0.time) }, target: target)
    try StateFile.write(file, to: path)
  }
}
