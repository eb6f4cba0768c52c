import ARCRS
import ARFiles
import ARGeo
import ARImageIO
import ARMaps
import ARPlaces
import ARRecording
import ARScene
import ArgumentParser
import Foundation

/// `arscene poi`: points of interest near a position.
struct PoiCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "poi",
    abstract: "Points of interest: which are near a position.",
    discussion: """
      A places file is GeoJSON (Point features are places: id is the feature's id, else \
      properties.id; name is properties.name) or a site guide's JSON list of stops \
      ({id, label, name, location: {lat, lon, alt}, hasGeoGame}). Distances are geodesic on \
      WGS84, metres; bearings degrees clockwise from north. A bad file is an error naming the \
      feature and field, exit code 2.
      """,
    subcommands: [Near.self, Replay.self, Game.self, Map.self]
  )

  /// Reads a places file, turning its errors into input failures.
  static func places(_ path: String) throws -> PlaceSet {
    do {
      // A GeoJSON file in a national grid converts through PROJ.
      // GeoJSON positions are easting first, whatever the CRS's own axis order.
      return try PlaceSet.read(path: path, projection: CoordinateOperation.projectionToWGS84)
    } catch { throw InputFailure(error) }
  }

  struct Near: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "near",
      abstract:
        "The places within a radius of a position, or the nearest ones, nearest first, as JSON lines.",
      discussion: """
        Prints one line a place: {"bearing_deg":…,"distance_m":…,"id":"…","name":"…"} (name null \
        when the place has none), nearest first, ties in file order.
        """)

    @Option(
      parsing: .unconditional, help: "The position LAT,LON (degrees).",
      transform: GeoPositionValue.init(parsing:)) var at: GeoPositionValue
    @Option(parsing: .unconditional, help: "The radius, metres (≥ 0). Without it, --max nearest places.")
    var radius: Double?
    @Option(help: "At most this many places (at least 1).") var max: Int?
    @Option(help: "Threads building the index (default: every core); the answer is the same for any count.")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Argument(help: "The places file (GeoJSON or a site guide's stops).") var file: String

    func validate() throws {
      if let radius, !(radius >= 0 && radius.isFinite) {
        throw ValidationError("--radius: expected metres ≥ 0, got \(radius)")
      }
      if let max, max < 1 { throw ValidationError("--max: expected at least 1, got \(max)") }
      guard (1...256).contains(threads) else { throw ValidationError("--threads: 1 to 256, got \(threads)") }
      guard radius != nil || max != nil else { throw ValidationError("give --radius, --max or both") }
      if at.hasHeight { throw ValidationError("--at: expected LAT,LON") }
    }

    func run() throws {
      try reportingInputFailures {
        let index: PlaceIndex
        do { index = try PlaceIndex(PoiCommand.places(file).places, threads: threads) } catch let failure
          as InputFailure
        {
          throw failure
        } catch {
          throw InputFailure(message: "\(file): \(error)")
        }
        let matches: [PlaceIndex.Match]
        do {
          if let radius {
            matches = try index.within(radius, of: at.coordinate, limit: max ?? .max)
          } else {
            matches = try index.nearest(max ?? 1, to: at.coordinate)
          }
        } catch {
          throw InputFailure(message: "\(error)")
        }
        var out = ""
        for match in matches { out += try JSONOutput.encoded(NearbyPlace(match, in: index)) }
        FileHandleOutput.standardOutput.write(out)
      }
    }
  }

  struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "replay",
      abstract: "Replay a track past the places' geofences: enter, exit and dwell events as JSON lines.",
      discussion: """
        Each place is a circle of --radius metres, each area (a GeoJSON Polygon) a polygon. A fix counts as inside when it is inside by its \
        accuracy (at most half the radius), as outside when it is outside by its accuracy plus 5 m; \
        two such fixes in a row enter or leave (hysteresis against GNSS noise; ARPlaces' \
        GeofenceMonitor documents what it costs in delay). One line an event: \
        {"distance_m","event","id","latitude","longitude","name","time"}. Fences alert once ever \
        unless --repeating: with --history FILE the alerts of earlier runs are read first and this \
        run's written back (atomically), so a place never alerts twice.
        """)

    @Argument(help: "The track: a GPX file, or a recording (any layout arscene recording reads).") var track:
      String
    @Argument(help: "The places file (GeoJSON or a site guide's stops).") var file: String
    @Option(help: "Each place's geofence radius, metres.") var radius: Double = 100
    @Option(help: "Report dwell after this many seconds inside.") var dwell: Double?
    @Flag(help: "Alert on every entry, not once ever.") var repeating = false
    @Option(help: "The alert history file (JSON), read first and written back.") var history: String?

    func validate() throws {
      guard radius > 0, radius.isFinite else { throw ValidationError("--radius: expected metres > 0") }
      if let dwell, !(dwell > 0 && dwell.isFinite) { throw ValidationError("--dwell: expected seconds > 0") }
    }

    func run() throws {
      try reportingInputFailures {
        let set = try PoiCommand.places(file)
        let fixes = try Self.fixes(track)
        var rules = GeofenceMonitor.Rules()
        (rules.dwell, rules.repeating) = (dwell, repeating)
        var monitor: GeofenceMonitor
        do {
          monitor = try GeofenceMonitor(
            fences: set.places.map { Geofence(around: $0, radius: radius) } + set.areas.map(\.geofence),
            rules: rules,
            history: try history.map { path throws(PlaceFileError) in try GeofenceHistory.read(path: path) }
              ?? GeofenceHistory())
        } catch let error as PlaceFileError { throw InputFailure(error) } catch {
          throw InputFailure(message: "\(file): \(error)")
        }
        var out = ""
        for fix in fixes {
          for event in monitor.update(fix) { out += try JSONOutput.encoded(event) }
        }
        if let history {
          do { try monitor.history.write(to: history) } catch { throw InputFailure(error) }
        }
        FileHandleOutput.standardOutput.write(out)
      }
    }

    /// A GPX file's fixes, or a recording's GNSS fixes.
    static func fixes(_ path: String) throws -> [TrackFix] {
      do { return try Track.read(path: path).fixes } catch { throw InputFailure(error) }
    }
  }

  struct Game: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "game",
      abstract: "The visit game: a track's visits to the game's stops, kept in a state file across runs.",
      discussion: """
        The game's stops are the places with hasGeoGame (every place of a GeoJSON file), in file \
        order. A stop is visited on entering its geofence (--on entry) or after --dwell seconds in \
        it (--on dwell), once. The state file (JSON, written atomically) is read first and written \
        back, so a game goes on where it stopped. Prints one JSON line: {"complete","newly_visited",\
        "next","progress":{"total","visited"},"visited":[{"id","time"}]}; next is the first \
        unvisited stop from the one the player was sent to, wrapping round the tour.
        """)

    @Argument(help: "The track: a GPX file, or a recording.") var track: String
    @Argument(help: "The places file (a site guide's stops, or GeoJSON).") var file: String
    @Option(help: "The game's state file (JSON).") var state: String
    @Option(help: "Each stop's geofence radius, metres.") var radius: Double = 30
    @Option(help: "When a stop counts as visited: entry or dwell.") var on: VisitGame.Rule = .entry
    @Option(help: "With --on dwell: seconds inside.") var dwell: Double = 20

    func validate() throws {
      guard radius > 0, radius.isFinite else { throw ValidationError("--radius: expected metres > 0") }
      guard dwell > 0, dwell.isFinite else { throw ValidationError("--dwell: expected seconds > 0") }
    }

    func run() throws {
      try reportingInputFailures {
        let rule = on
        let set = try PoiCommand.places(file)
        let gamePlaces = set.places.contains(where: \.inGame) ? set.places.filter(\.inGame) : set.places
        var game: VisitGame
        do { game = try VisitGame.read(path: state, stops: gamePlaces.map(\.id)) } catch {
          throw InputFailure(error)
        }
        var rules = GeofenceMonitor.Rules()
        (rules.repeating, rules.dwell) = (true, rule == .dwell ? dwell : nil)
        var monitor: GeofenceMonitor
        do {
          monitor = try GeofenceMonitor(
            fences: gamePlaces.map { Geofence(around: $0, radius: radius) }, rules: rules)
        } catch {
          throw InputFailure(message: "\(file): \(error)")
        }
        var newlyVisited: [String] = []
        for fix in try Replay.fixes(track) { newlyVisited += game.take(monitor.update(fix), rule: rule) }
        do { try game.write(to: state) } catch { throw InputFailure(error) }
        try JSONOutput.write(VisitGameReport(game, newlyVisited: newlyVisited))
      }
    }
  }

  struct Map: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "map",
      abstract:
        "The site map: places as numbered stops, paths, areas, geofences, a track and its events, as SVG and PNG.",
      discussion: """
        A local grid (east right, north up) fitted to everything drawn, with a scale bar and a north \
        arrow; stops are numbered by their label (else their order). With --track, the walk is drawn \
        and replayed past the places' geofences (as arscene poi replay does, every entry reported): \
        entries green, exits red, dwells amber. Files are written whole or not at all.
        """)

    @Argument(help: "The places file (GeoJSON or a site guide's stops).") var file: String
    @Option(name: .shortAndLong, help: "The SVG to write.") var output: String
    @Option(help: "Also a PNG of the same map.") var png: String?
    @Option(help: "A track to draw and replay (GPX or a recording).") var track: String?
    @Option(help: "Geofence radius drawn around each place, metres.") var radius: Double?
    @Option(help: "The map's size W,H in pixels (100 to 8192 each).", transform: PixelSize.init(parsing:))
    var size = PixelSize(argument: "1000,800")!

    func validate() throws {
      guard size.fits(100...8192) else {
        throw ValidationError("--size: width and height must be whole pixels from 100 to 8192")
      }
      if let radius, !(radius > 0 && radius.isFinite) {
        throw ValidationError("--radius: expected metres > 0")
      }
    }

    func run() throws {
      try reportingInputFailures {
        let set = try PoiCommand.places(file)
        let fixes = try track.map { try Replay.fixes($0) } ?? []
        var events: [GeofenceEvent] = []
        if !fixes.isEmpty {
          var rules = GeofenceMonitor.Rules()
          rules.repeating = true
          do {
            var monitor = try GeofenceMonitor(
              fences: set.places.map { Geofence(around: $0, radius: radius ?? 30) }
                + set.areas.map(\.geofence), rules: rules)
            events = fixes.flatMap { monitor.update($0) }
          } catch { throw InputFailure(message: "\(file): \(error)") }
        }
        let map = SiteMap(
          places: set, fenceRadius: radius, track: fixes, events: events, width: size.width,
          height: size.height)
        let drawing: VectorDrawing
        do { drawing = try map.drawing() } catch { throw InputFailure(message: "\(file): \(error)") }
        do {
          try FileIO.writeAtomically(Array(drawing.svg().utf8), to: output)
          if let png { try ImageFile.writePNG(drawing.image(), to: png, compression: 6) }
        } catch { throw InputFailure(error) }
      }
    }
  }
}
