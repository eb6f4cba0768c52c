import Foundation

/// Which fences have alerted, and when: what keeps a one-shot fence quiet across runs.
///
/// Stored as a JSON file (written whole to a temporary file, then renamed, so that a crash
/// never leaves half a history):
/// `{"format": "arscene-geofence-history", "version": 1, "alerts": [{"id": "…", "first": t, "last": t, "count": n}, …]}`,
/// times in seconds since 1970, alerts sorted by id.
public struct GeofenceHistory: Sendable, Equatable {
  /// Per fence id: the first and last entry times, and how many entries.
  public private(set) var entries: [String: (first: Double, last: Double, count: Int)] = [:]

  /// An empty history: no fence alerted before.
  public init() {}

  /// The fences that have alerted at least once.
  public var alerted: Set<String> { Set(entries.keys) }

  mutating func record(_ id: String, at time: Double) {
    if let e = entries[id] {
      entries[id] = (e.first, max(e.last, time), e.count + 1)
    } else {
      entries[id] = (time, time, 1)
    }
  }

  public static func == (a: GeofenceHistory, b: GeofenceHistory) -> Bool {
    a.entries.count == b.entries.count
      && a.entries.allSatisfy { id, e in b.entries[id].map { $0 == e } ?? false }
  }

  private struct File: VersionedState {
    static let currentFormat = (name: "arscene-geofence-history", version: 1)
    var format = currentFormat.name
    var version = currentFormat.version
    var alerts: [Alert]
    struct Alert: Codable {
      var id: String
      var first: Double, last: Double
      var count: Int
    }
  }

  /// Reads a history file; a file that does not exist is an empty history.
  ///
  /// - Throws: ``PlaceFileError`` naming the file and the field at fault.
  public static func read(path: String) throws(PlaceFileError) -> GeofenceHistory {
    guard let file = try StateFile.read(File.self, path: path) else { return GeofenceHistory() }
    var history = GeofenceHistory()
    for alert in file.alerts { history.entries[alert.id] = (alert.first, alert.last, alert.count) }
    return history
  }

  /// Writes the history to `path`, atomically.
  public func write(to path: String) throws(PlaceFileError) {
    let file = File(
      alerts: entries.keys.sorted().map { id in
        let e = entries[id]!
        return File.Alert(id: id, first: e.first, last: e.last, count: e.count)
      })
    try StateFile.write(file, to: path)
  }
}
