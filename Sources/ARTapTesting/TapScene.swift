import ARHit
import ARMath
import ARMesh

/// A model and its named tap targets (acupressure points on a hand, markers on a site model),
/// placed in the world: the ground an app's tap tests stand on.
///
/// ```swift
/// let hand = try TapScene(model: "hand-right.obj", points: "hand-right-points.json")
/// let phone = try hand.phone(aimedAt: "LI4", from: 0.30)
/// #expect(try phone.tap(on: "LI4").best == "LI4")
/// ```
///
/// The model occludes the targets behind it, as the app's hit test should. World frame: the
/// model's, moved by ``worldFromModel`` (metres, +Y up).
public struct TapScene: Sendable {
  /// The targets in world metres, in the point file's order.
  public let targets: [TapTarget]
  /// The model in world metres, as a hierarchy for tap rays.
  public let occluder: BoundingVolumeHierarchy
  /// Model to world (metres).
  public let worldFromModel: RigidTransform<Double>
  /// The model in its own frame (metres), as snapshots draw it.
  public let mesh: Mesh
  /// The encoded images a GLB carries in its buffers, by the texture path its materials name
  /// (empty for other models): what snapshots draw them from.
  public var embeddedImages: [String: [UInt8]] = [:]
  /// What reading the model file said: each warning names what of it is left out or drawn
  /// otherwise than its format asks (a prim not drawn, a texture not applied); empty for a
  /// scene made from a mesh. A test may assert it is empty, or show it.
  public var modelWarnings: [String] = []

  /// The model of an OBJ file and the points of a point file (`docs/points.schema.json`),
  /// placed by `worldFromModel`.
  ///
  /// - Throws: ``TapSceneError`` naming the file that cannot be read and why.
  public init(model: String, points: String, worldFromModel: RigidTransform<Double> = .identity)
    throws(TapSceneError)
  {
    let asset: ModelAsset
    do { asset = try ModelAsset.load(path: model, lenient: true).requiringGeometry() } catch {
      throw .model(error)
    }
    let set: PointSet
    do { set = try PointSet.load(path: points) } catch { throw .points(error) }
    try self.init(mesh: asset.mesh, points: set, worldFromModel: worldFromModel)
    (embeddedImages, modelWarnings) = (asset.embeddedImages, asset.warnings)
  }

  /// The model of a glTF or GLB file whose marked points (named empty nodes with nothing
  /// under them) are the targets, each a sphere of `radius` metres about the node's origin, placed by
  /// `worldFromModel`.
  ///
  /// - Throws: ``TapSceneError`` naming the file that cannot be read, or a model without
  ///   empties.
  public init(model: String, targetRadius radius: Double, worldFromModel: RigidTransform<Double> = .identity)
    throws(TapSceneError)
  {
    let asset: ModelAsset
    do { asset = try ModelAsset.load(path: model, lenient: true).requiringGeometry() } catch {
      throw .model(error)
    }
    let empties = asset.namedNodes.filter(\.isMarker)
    guard !empties.isEmpty, radius > 0, radius.isFinite else {
      throw .model(
        .notAModel(path: model, reason: "no named empty nodes to tap (or a radius that is not above 0)"))
    }
    try self.init(
      mesh: asset.mesh, targets: empties.map { ($0.name, $0.position, radius) },
      worldFromModel: worldFromModel)
    (embeddedImages, modelWarnings) = (asset.embeddedImages, asset.warnings)
  }

  /// A mesh and its points (model frame), placed by `worldFromModel`.
  public init(mesh: Mesh, points: PointSet, worldFromModel: RigidTransform<Double> = .identity)
    throws(TapSceneError)
  {
    try self.init(
      mesh: mesh,
      targets: points.points.map { point in
        (point.code, SIMD3(point.position[0], point.position[1], point.position[2]), point.radius)
      }, worldFromModel: worldFromModel)
  }

  /// A mesh and named spheres (model frame: centre and radius in metres), placed by
  /// `worldFromModel`.
  init(
    mesh: Mesh, targets: [(name: String, centre: SIMD3<Double>, radius: Double)],
    worldFromModel: RigidTransform<Double>
  ) throws(TapSceneError) {
    self.worldFromModel = worldFromModel
    self.mesh = mesh
    self.targets = targets.map { target in
      TapTarget(
        name: target.name,
        sphere: Sphere(center: worldFromModel.transformPoint(target.centre), radius: target.radius))
    }
    let positions = mesh.positions.indices.map { worldFromModel.transformPoint(mesh.modelPosition($0)) }
    do {
      occluder = try BoundingVolumeHierarchy(positions: positions, indices: mesh.indices.map(Int.init))
    } catch { throw .hit(error) }
  }

  /// The target named `code`.
  public func target(_ code: String) throws(TapSceneError) -> TapTarget {
    guard let target = targets.first(where: { $0.name == code }) else {
      throw .unknownTarget(code, known: targets.map(\.name))
    }
    return target
  }

  /// A phone held `distance` metres from target `code`, in the direction `towards` from it (a
  /// unit vector, world frame; default straight above), looking at the target with the screen
  /// in `orientation`: the target shows at the centre of the view.
  ///
  /// - Parameters:
  ///   - camera: The phone's camera and screen.
  ///   - code: The target the phone looks at.
  ///   - distance: From the target to the camera, metres.
  ///   - direction: Where the camera is from the target (world frame, unit length).
  ///   - up: Which world direction shows towards the top of the captured image (in the sensor's
  ///     landscape orientation); default −Z when looking along ±Y, +Y otherwise.
  ///   - orientation: How the interface is turned (default portrait).
  public func phone(
    _ camera: PhoneCamera = .sixPointOneInch, aimedAt code: String, from distance: Double,
    towards direction: SIMD3<Double> = [0, 1, 0], up: SIMD3<Double>? = nil,
    orientation: InterfaceOrientation = .portrait
  ) throws(TapSceneError) -> PhoneView {
    let centre = try target(code).sphere.center
    guard distance > 0, distance.isFinite, let unit = direction.normalizedOrNil() else {
      throw .invalidPlacement("distance must be positive and the direction non-zero")
    }
    let up = up ?? (abs(unit.y) > 0.99 ? [0, 0, -1] : [0, 1, 0])
    guard let pose = RigidTransform.lookAt(eye: centre + unit * distance, target: centre, up: up) else {
      throw .invalidPlacement("up is parallel to the viewing direction")
    }
    return try phone(camera, worldFromCamera: pose, orientation: orientation)
  }

  /// A phone held upright at `eye` (world metres), its camera along compass `heading` (degrees
  /// clockwise about +Y from the world's −Z, which is north in ARKit's gravity-and-heading
  /// frame) and `pitch` degrees above level, its screen in `orientation` showing the world's up
  /// at its top: how a visitor holds a phone at a GPS position.
  ///
  /// ARKit's camera pose is the sensor's, landscape-right: for another interface orientation
  /// the level view is turned about the view axis by the same quarter turns the view applies.
  ///
  /// - Throws: ``TapSceneError/invalidPlacement(_:)`` for a position, heading or pitch that is
  ///   not finite, or a pitch of ±90° or beyond (no heading is left).
  public func phone(
    _ camera: PhoneCamera = .sixPointOneInch, at eye: SIMD3<Double>, heading: Double, pitch: Double = 0,
    orientation: InterfaceOrientation = .portrait
  ) throws(TapSceneError) -> PhoneView {
    guard eye.x.isFinite, eye.y.isFinite, eye.z.isFinite, heading.isFinite, pitch.isFinite, abs(pitch) < 90
    else {
      throw .invalidPlacement("the position, heading and pitch must be finite, the pitch within ±90°")
    }
    // −Z raised by the pitch about +X, then turned clockwise (seen from above) by the heading.
    let raised = Quaternion<Double>(angle: .degrees(pitch), axis: [1, 0, 0]).act([0, 0, -1])
    let forward = Quaternion<Double>(angle: .degrees(-heading), axis: [0, 1, 0]).act(raised)
    guard let level = RigidTransform.lookAt(eye: eye, target: eye + forward, up: [0, 1, 0]) else {
      throw .invalidPlacement("the view direction is vertical")
    }
    let quarterTurns: Double =
      switch orientation {
      case .landscapeRight: 0
      case .portrait: 1
      case .landscapeLeft: 2
      case .portraitUpsideDown: -1
      }
    let sensor = RigidTransform<Double>(
      rotation: Quaternion(angle: .radians(-quarterTurns * .pi / 2), axis: [0, 0, 1]), translation: .zero)
    return try phone(camera, worldFromCamera: level * sensor, orientation: orientation)
  }

  /// A phone at `worldFromCamera` (ARKit convention: x right, y up, looking down −Z, in the
  /// sensor's landscape orientation), its screen in `orientation`.
  public func phone(
    _ camera: PhoneCamera = .sixPointOneInch, worldFromCamera: RigidTransform<Double>,
    orientation: InterfaceOrientation = .portrait
  ) throws(TapSceneError) -> PhoneView {
    let pinhole = PinholeCamera(intrinsics: camera.intrinsics, worldFromCamera: worldFromCamera)
    do {
      let taps = try TapCamera(
        camera: pinhole, viewSize: camera.viewSize(for: orientation), orientation: orientation)
      return PhoneView(scene: self, tester: try TapHitTester(camera: taps, targets: targets, mesh: occluder))
    } catch { throw .hit(error) }
  }
}
