import ARGeo
import ARPlaces
import Foundation

/// The site map a guide shows: places as numbered stops, paths, areas, geofences, a walked
/// track and what happened along it, on a local grid (east right, north up) with a scale bar
/// and a north arrow; as SVG and as an image from one ``VectorDrawing``.
public struct SiteMap: Sendable {
  /// The places, paths and areas drawn.
  public var places: PlaceSet
  /// Geofence circles drawn around the places (metres), if any.
  public var fenceRadius: Double?
  /// A walked track.
  public var track: [TrackFix]
  /// Geofence events along the track.
  public var events: [GeofenceEvent]
  /// The map's size, pixels.
  public var width: Int, height: Int

  /// A map of `places` with these extras, `width × height` pixels.
  public init(
    places: PlaceSet, fenceRadius: Double? = nil, track: [TrackFix] = [], events: [GeofenceEvent] = [],
    width: Int = 1000, height: Int = 800
  ) {
    self.places = places
    self.fenceRadius = fenceRadius
    self.track = track
    self.events = events
    self.width = width
    self.height = height
  }

  /// Where the map's pixels are: the local plane at the content's centre, scaled to fit.
  public struct Projection: Sendable {
    /// The local plane the map is drawn on.
    public let frame: LocalTangentFrame
    /// Pixels a metre; the pixel of the frame's origin.
    public let scale: Double, origin: SIMD2<Double>
    /// The map pixel showing `p` (its height ignored).
    public func pixel(_ p: GeodeticCoordinate) -> SIMD2<Double> {
      let e = frame.enu(
        GeodeticCoordinate(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees))
      return origin + SIMD2(e.x, -e.y) * scale
    }
  }

  /// The projection that fits everything on the map with a margin.
  ///
  /// - Throws: `GeoError` when there is nothing to draw, or a coordinate out of range.
  public func projection() throws(GeoError) -> Projection {
    let all =
      places.places.map(\.coordinate) + places.paths.flatMap(\.coordinates) + places.areas.flatMap(\.ring)
      + track.map(\.coordinate)
    guard !all.isEmpty else {
      throw .invalidCoordinate(
        field: "map", value: 0, reason: "nothing to draw: no places, paths, areas or track")
    }
    let mean =
      all.reduce(SIMD2<Double>.zero) { $0 + SIMD2($1.latitudeDegrees, $1.longitudeDegrees) }
      / Double(all.count)
    let frame = try LocalTangentFrame(
      origin: GeodeticCoordinate(latitudeDegrees: mean.x, longitudeDegrees: mean.y))
    var low = SIMD2(repeating: Double.infinity), high = SIMD2(repeating: -Double.infinity)
    let pad = fenceRadius ?? 0
    for p in all {
      let e = frame.enu(
        GeodeticCoordinate(latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees))
      low = pointwiseMin(low, SIMD2(e.x, e.y) - pad)
      high = pointwiseMax(high, SIMD2(e.x, e.y) + pad)
    }
    let margin = 60.0
    let extent = pointwiseMax(high - low, SIMD2(repeating: 20))
    let scale = min((Double(width) - 2 * margin) / extent.x, (Double(height) - 2 * margin) / extent.y)
    let centre = (low + high) / 2
    let origin = SIMD2(Double(width) / 2 - centre.x * scale, Double(height) / 2 + centre.y * scale)
    return Projection(frame: frame, scale: scale, origin: origin)
  }

  /// The map.
  public func drawing() throws(GeoError) -> VectorDrawing {
    let map = try projection()
    typealias Paint = VectorDrawing.Paint
    var d = VectorDrawing(width: width, height: height, background: Paint(SIMD3(0.86, 0.84, 0.74)))
    let (grid, ink) = (Paint(SIMD3(0.6, 0.6, 0.55), opacity: 0.5), Paint(SIMD3(0.05, 0.05, 0.05)))
    // A grid of round metres, the scale bar's step.
    let step = Self.roundLength(Double(width) / 5 / map.scale)
    let spacing = step * map.scale
    for k in stride(
      from: (map.origin.x.truncatingRemainder(dividingBy: spacing)), to: Double(width), by: spacing)
    {
      d.add(.polyline([SIMD2(k, 0), SIMD2(k, Double(height))], stroke: grid, width: 1, dashed: false))
    }
    for k in stride(
      from: (map.origin.y.truncatingRemainder(dividingBy: spacing)), to: Double(height), by: spacing)
    {
      d.add(.polyline([SIMD2(0, k), SIMD2(Double(width), k)], stroke: grid, width: 1, dashed: false))
    }
    for area in places.areas {
      d.add(
        .polygon(
          area.ring.map(map.pixel), fill: Paint(SIMD3(0.25, 0.45, 0.15), opacity: 0.25),
          stroke: Paint(SIMD3(0.2, 0.35, 0.1)), width: 2))
    }
    for path in places.paths {
      d.add(
        .polyline(
          path.coordinates.map(map.pixel), stroke: Paint(SIMD3(0.45, 0.25, 0.08)), width: 4, dashed: false))
    }
    if let fenceRadius {
      for place in places.places {
        d.add(
          .circle(
            map.pixel(place.coordinate), radius: fenceRadius * map.scale,
            fill: Paint(SIMD3(0.7, 0.1, 0.05), opacity: 0.06),
            stroke: Paint(SIMD3(0.7, 0.1, 0.05), opacity: 0.7), width: 1.5, dashed: true))
      }
    }
    if track.count > 1 {
      d.add(
        .polyline(
          track.map { map.pixel($0.coordinate) }, stroke: Paint(SIMD3(0.05, 0.25, 0.75)), width: 2.5,
          dashed: false))
    }
    for event in events {
      let colour: SIMD3<Float> =
        switch event.kind {
        case .enter: SIMD3(0.05, 0.55, 0.1)
        case .exit: SIMD3(0.75, 0.1, 0.05)
        case .dwell: SIMD3(0.9, 0.55, 0.0)
        }
      let at = map.pixel(
        GeodeticCoordinate(latitudeDegrees: event.latitude, longitudeDegrees: event.longitude))
      d.add(
        .circle(at, radius: 5, fill: Paint(colour), stroke: Paint(SIMD3(1, 1, 1)), width: 1.5, dashed: false))
    }
    // The stops: numbered discs, names beside them.
    for (i, place) in places.places.enumerated() {
      let at = map.pixel(place.coordinate)
      d.add(
        .circle(
          at, radius: 11, fill: Paint(SIMD3(0.55, 0.05, 0.03)), stroke: Paint(SIMD3(1, 1, 1)), width: 2,
          dashed: false))
      let number = place.label ?? String(i + 1)
      d.add(
        .text(
          number, at: at + SIMD2(0, 4.5), size: number.count > 2 ? 9 : 12, paint: Paint(SIMD3(1, 1, 1)),
          centred: true))
      if let name = place.name {
        d.add(.text(name, at: at + SIMD2(15, 5), size: 13, paint: ink, centred: false))
      }
    }
    // The scale bar (bottom left) and the north arrow (top right): north is up, the plane's y.
    let bar = SIMD2(30.0, Double(height) - 30)
    d.add(.polyline([bar, bar + SIMD2(spacing, 0)], stroke: ink, width: 3, dashed: false))
    for x in [bar.x, bar.x + spacing] {
      d.add(.polyline([SIMD2(x, bar.y - 6), SIMD2(x, bar.y + 1)], stroke: ink, width: 2, dashed: false))
    }
    d.add(
      .text(
        DistanceText.formatted(step), at: bar + SIMD2(spacing / 2, -10), size: 13, paint: ink,
        centred: true))
    let north = SIMD2(Double(width) - 35, 30.0)
    d.add(
      .polygon(
        [north + SIMD2(0, -18), north + SIMD2(9, 10), north + SIMD2(0, 4), north + SIMD2(-9, 10)], fill: ink,
        stroke: nil, width: 0))
    d.add(.text("N", at: north + SIMD2(0, 28), size: 13, paint: ink, centred: true))
    return d
  }

  /// A round length (1, 2 or 5 × 10ⁿ metres) at most `metres`.
  static func roundLength(_ metres: Double) -> Double {
    let power = pow(10, (log10(max(metres, 1e-3))).rounded(.down))
    for k in [5.0, 2, 1] where k * power <= metres { return k * power }
    return power
  }
}
