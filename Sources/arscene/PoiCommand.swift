import ARGeo
import ARPlaces
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
    subcommands: [Near.self]
  )

  /// Reads a places file, turning its errors into input failures.
  static func places(_ path: String) throws -> PlaceSet {
    do { return try PlaceSet.read(path: path) } catch { throw InputFailure(error) }
  }

  struct Near: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "near",
      abstract: "The places within a radius of a position, nearest first, as JSON lines.",
      discussion: """
        Prints one line a place: {"bearing_deg":…,"distance_m":…,"id":"…","name":"…"} (name null \
        when the place has none), nearest first, ties in file order.
        """)

    @Option(parsing: .unconditional, help: "The position LAT,LON (degrees).") var at: String
    @Option(parsing: .unconditional, help: "The radius, metres.") var radius: Double
    @Option(help: "At most this many places.") var max: Int?
    @Argument(help: "The places file (GeoJSON or a site guide's stops).") var file: String

    func run() throws {
      try reportingInputFailures {
        let position = try GeoCommand.coordinate(at, name: "--at", withHeight: false)
        guard radius >= 0, radius.isFinite else {
          throw InputFailure(message: "--radius: expected metres ≥ 0, got \(radius)")
        }
        if let max, max < 1 { throw InputFailure(message: "--max: expected at least 1, got \(max)") }
        let index: PlaceIndex
        do { index = try PlaceIndex(Self.placesOf(file)) } catch let failure as InputFailure {
          throw failure
        } catch {
          throw InputFailure(message: "\(file): \(error)")
        }
        let matches: [PlaceIndex.Match]
        do { matches = try index.within(radius, of: position, limit: max ?? .max) } catch {
          throw InputFailure(message: "\(error)")
        }
        var out = ""
        for match in matches { out += try JSONOutput.encoded(NearbyPlace(match, in: index)) }
        FileHandleOutput.standardOutput.write(out)
      }
    }

    static func placesOf(_ file: String) throws -> [PointOfInterest] { try PoiCommand.places(file).places }
  }
}
