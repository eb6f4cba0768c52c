import ARGeo

/// Watches fences as fixes come in, with hysteresis against GNSS noise.
///
/// A fix of accuracy a (its 68% radius, or ``Rules/defaultAccuracy``) counts as inside a fence
/// when it is inside by at least `min(a, radius / 2)` (``Rules/entryMargin`` accuracies, capped
/// at half the fence), and as outside when it is outside by at least `a + exitMargin`; between
/// the two it changes nothing. ``Rules/confirmations`` such fixes in a row enter or leave. So:
///
/// - noise alone does not enter: a walker who keeps two accuracies or more outside a fence
///   needs an error of three accuracies (about 4.5σ) on consecutive fixes to be counted in;
/// - an entry costs a delay: the walker must be `min(a, r/2)` inside, then
///   `confirmations − 1` more fixes come. It is reported within `confirmations` fixes of the
///   walker being `min(a, r/2) + 1.5a` inside (noise rarely holds a fix back further); over
///   200 simulated walks at 1.4 m/s with a 4.8 m accuracy and 1 s fixes the median delay after
///   the true crossing was 5.6 s.
///
/// There is no limit on fences (iOS monitors 20 regions an app; Android 100 geofences).
/// One-shot fences (the default) alert once ever: their entries go into the ``GeofenceHistory``,
/// which a later run starts from, and are skipped from then on.
public struct GeofenceMonitor: Sendable {
  /// The hysteresis and the kinds of alerts.
  public struct Rules: Sendable, Equatable {
    /// How far inside (in accuracies, at most half the fence) a fix must be to count as in.
    public var entryMargin = 1.0
    /// Metres beyond the accuracy a fix must be outside to count as out.
    public var exitMargin = 5.0
    /// Fixes in a row that enter or leave.
    public var confirmations = 2
    /// After this long inside (seconds) a visit reports `dwell`, once (nil: never).
    public var dwell: Double? = nil
    /// Alert on every entry (true) or once ever (false: the travel app's "never twice").
    public var repeating = false
    /// The accuracy assumed for fixes that report none, metres.
    public var defaultAccuracy = 10.0

    /// The defaults above.
    public init() {}
  }

  /// The fences watched.
  public let fences: [Geofence]
  /// When events are reported.
  public let rules: Rules
  /// Fences alerted before (one-shot ones are then quiet), and this run's entries added.
  public private(set) var history: GeofenceHistory
  private let distances: [FenceDistance]
  private var state: [FenceState]

  private struct FenceState: Sendable {
    var inside = false
    var streak = 0
    var enteredAt: Double?
    var dwelt = false
  }

  /// A monitor of `fences` starting from `history`.
  ///
  /// - Throws: `GeoError` for a fence whose centre or vertices are out of range, a radius that
  ///   is not positive, or a polygon of fewer than 3 vertices.
  public init(fences: [Geofence], rules: Rules = Rules(), history: GeofenceHistory = GeofenceHistory())
    throws(GeoError)
  {
    self.fences = fences
    self.rules = rules
    self.history = history
    var distances: [FenceDistance] = []
    for fence in fences { distances.append(try FenceDistance(fence.shape)) }
    self.distances = distances
    state = Array(repeating: FenceState(), count: fences.count)
  }

  /// The events `fix` sets off, in fence order.
  public mutating func update(_ fix: TrackFix) -> [GeofenceEvent] {
    var events: [GeofenceEvent] = []
    let accuracy = fix.accuracy ?? rules.defaultAccuracy
    for (i, fence) in fences.enumerated() {
      if !rules.repeating, history.alerted.contains(fence.id), !state[i].inside { continue }
      let d = distances[i](fix.coordinate)
      var entryMargin = rules.entryMargin * accuracy
      if case .circle(_, let radius) = fence.shape { entryMargin = min(entryMargin, radius / 2) }
      let counts: Bool
      if state[i].inside {
        counts = d >= accuracy + rules.exitMargin
      } else {
        counts = d <= -entryMargin
      }
      state[i].streak = counts ? state[i].streak + 1 : 0
      func event(_ kind: GeofenceEvent.Kind) -> GeofenceEvent {
        GeofenceEvent(
          id: fence.id, name: fence.name, kind: kind, time: fix.time,
          latitude: fix.coordinate.latitudeDegrees,
          longitude: fix.coordinate.longitudeDegrees, distanceMetres: d)
      }
      if state[i].streak >= rules.confirmations {
        state[i].streak = 0
        state[i].inside.toggle()
        if state[i].inside {
          state[i].enteredAt = fix.time
          state[i].dwelt = false
          history.record(fence.id, at: fix.time)
          events.append(event(.enter))
        } else {
          state[i].enteredAt = nil
          events.append(event(.exit))
        }
      } else if state[i].inside, let dwell = rules.dwell, !state[i].dwelt, let since = state[i].enteredAt,
        fix.time - since >= dwell
      {
        state[i].dwelt = true
        events.append(event(.dwell))
      }
    }
    return events
  }
}
