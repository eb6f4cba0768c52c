import ARMath

/// An object carrying several square markers at known places (the front and back of a card, a
/// cube with a marker per face): its pose from whichever markers are seen, all corners at once.
public struct MarkerRig: Sendable {
  /// A marker on the rig.
  public struct Marker: Sendable {
    /// Its identifier (the ArUco or AprilTag id).
    public var id: Int
    /// Side length, metres.
    public var size: Double
    /// Where it sits on the object (`object_from_marker`; the marker's own frame as in
    /// ``SquareMarker/corners(size:)``).
    public var objectFromMarker: RigidTransform<Double>

    /// Marker `id` of side `size` metres at `objectFromMarker` on the object.
    public init(id: Int, size: Double, objectFromMarker: RigidTransform<Double>) {
      self.id = id
      self.size = size
      self.objectFromMarker = objectFromMarker
    }

    /// Its corners in the object's frame, metres, in IPPE_SQUARE order.
    public var objectCorners: [SIMD3<Double>] {
      SquareMarker.corners(size: size).map { objectFromMarker.transformPoint(SIMD3($0.x, $0.y, 0)) }
    }
  }

  /// The markers, with distinct identifiers.
  public let markers: [Marker]

  /// A rig; identifiers must be distinct and sizes positive.
  public init(markers: [Marker]) throws(PoseError) {
    guard Set(markers.map(\.id)).count == markers.count else {
      throw .invalidInput(field: "markers", reason: "identifiers must be distinct")
    }
    for m in markers where !(m.size > 0 && m.size.isFinite) {
      throw .invalidInput(field: "markers[id \(m.id)].size", reason: "must be positive")
    }
    self.markers = markers
  }

  /// The object's pose (`camera_from_object`, OpenCV convention) from the corners of the markers
  /// seen (id → 4 pixels): one marker uses IPPE (two candidates), several use all their corners
  /// in one PnP, which removes the single-marker ambiguity.
  public func pose(observed: [Int: [SIMD2<Double>]], intrinsics: Pinhole<Double>, pixelSigma: Double = 0.5)
    throws(PoseError) -> [PoseSolution]
  {
    var objectPoints: [SIMD3<Double>] = [], imagePoints: [SIMD2<Double>] = []
    for (id, corners) in observed.sorted(by: { $0.key < $1.key }) {
      guard let marker = markers.first(where: { $0.id == id }) else {
        throw .invalidInput(field: "observed[\(id)]", reason: "no marker with this id on the rig")
      }
      guard corners.count == 4 else {
        throw .invalidInput(field: "observed[\(id)]", reason: "expected 4 corners")
      }
      objectPoints += marker.objectCorners
      imagePoints += corners
    }
    guard !objectPoints.isEmpty else { throw .degenerate("no marker of the rig was seen") }
    return try PerspectivePose.solve(
      targetPoints: objectPoints, imagePoints: imagePoints, intrinsics: intrinsics, pixelSigma: pixelSigma)
  }

  /// Whether two observed marker poses (each `world_from_marker`, metres) are the same physical
  /// marker of side `size`: every corner within `tolerance` metres (default a tenth of the side).
  public static func isSameMarker(
    _ a: RigidTransform<Double>, _ b: RigidTransform<Double>, size: Double, tolerance: Double? = nil
  ) -> Bool {
    let limit = tolerance ?? size / 10
    return SquareMarker.corners(size: size).allSatisfy { c in
      let p = SIMD3(c.x, c.y, 0)
      return (a.transformPoint(p) - b.transformPoint(p)).length <= limit
    }
  }
}
