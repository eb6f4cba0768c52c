import ARFiles
import ARFilm
import ARGeo
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRender
import Foundation

/// Turns a decoded scene file into renderable parts, checking every field on the way.
struct SceneResolver {
  let path: String
  let file: SceneFile
  /// Converts a projected CRS's coordinates to WGS84, for models placed by them.
  let projection: CRSProjection?

  func fail(_ field: String, _ reason: String) -> SceneError {
    .invalidField(path: path, field: field, reason: reason)
  }

  func vector<Scalar: ARScalar>(_ values: [Scalar]?, _ count: Int, _ field: String) throws(SceneError)
    -> SIMD3<Scalar>?
  {
    guard let values else { return nil }
    guard values.count == count, values.allSatisfy(\.isFinite) else {
      throw fail(field, "expected \(count) finite numbers, got \(values.count)")
    }
    return SIMD3(values[0], values[1], values[2])
  }

  func matrix<Scalar: ARScalar>(_ values: [Scalar], _ field: String) throws(SceneError) -> Matrix4<Scalar> {
    do { return try Matrix4(validatingColumnMajor: values) } catch { throw fail(field, error.description) }
  }

  /// A distance for a message, whole metres: any `Double`, infinite and NaN too (never an
  /// integer conversion that could trap).
  static func metres(_ distance: Double) -> String {
    distance.isFinite ? String(format: "%.0f m", distance) : "an unbounded distance"
  }

  /// The file `reference` (the value of `field`) names, inside the scene file's folder or a
  /// folder the user allowed (``FileReferences``); anywhere else is an error naming the field.
  func resolvePath(_ reference: String, _ field: String) throws(SceneError) -> String {
    do { return try FileReferences.resolve(reference, in: path) } catch {
      throw fail(field, error.explanation)
    }
  }

  func resolve(width: Int?, height: Int?) throws(SceneError) -> Scene {
    let (fileWidth, fileHeight) = (file.output.width, file.output.height)
    guard fileWidth > 0, fileHeight > 0 else { throw fail("output", "width and height must be positive") }
    let (w, h) = (width ?? fileWidth, height ?? fileHeight)
    guard (1...RenderSettings.maximumSide).contains(w), (1...RenderSettings.maximumSide).contains(h) else {
      throw fail("output", "size \(w)×\(h) is outside 1…\(RenderSettings.maximumSide)")
    }
    let (camera, clipPlanes) = try resolveCamera(width: fileWidth, height: fileHeight)
    var scaled = camera
    scaled.intrinsics = camera.intrinsics.scaled(toWidth: w, height: h)
    // Checked in the file's order: background, objects, lights.
    var backgroundColor = SIMD4<Float>(0, 0, 0, 1)
    if let color = try vector(file.background?.color, 3, "background.color") {
      backgroundColor = SIMD4(color, 1)
    }
    let background = try background(width: w, height: h)
    let geoPlacement = try geoPlacement()
    var objects: [SceneObject] = []
    var targets: [SceneTarget] = []
    /// The first plane anchor's plane (point, normal): where its content's shadows fall.
    var anchorPlane: (SIMD3<Double>, SIMD3<Double>)?
    var warnings: [String] = []
    for (i, object) in file.objects.enumerated() {
      let (placed, pointTargets) = try resolveObject(
        object, index: i, camera: camera, geoPlacement: geoPlacement, anchorPlane: &anchorPlane,
        warnings: &warnings)
      objects.append(placed)
      targets += pointTargets
    }
    var scene = Scene(
      path: path, file: file, camera: scaled, clipPlanes: clipPlanes, lighting: try lighting(),
      objects: objects, background: background,
      backgroundColor: backgroundColor, targets: targets)
    scene.warnings = warnings
    scene.geoFrame = geoPlacement?.frame
    scene.lens = try lens()
    scene.shadows = try shadows(lighting: scene.lighting, anchorPlane: anchorPlane)
    if let film = file.film {
      let named = film.contains("/") || film.hasSuffix(".json") ? try resolvePath(film, "film") : film
      do { scene.film = try FilmLook(named: named) } catch { throw fail("film", error.description) }
    }
    return scene
  }

  /// The camera frame behind the scene, in linear light at the output size `width`×`height`;
  /// nil when the file gives a colour or nothing.
  func background(width: Int, height: Int) throws(SceneError) -> LinearImage? {
    guard let image = file.background?.image else { return nil }
    let (fileWidth, fileHeight) = (file.output.width, file.output.height)
    let frame: RGBA8Image
    let imagePath = try resolvePath(image, "background.image")
    do { frame = try ImageFile.readRGBA8(imagePath) } catch {
      throw .model(path: path, field: "background.image", reason: error.description)
    }
    // The intrinsics are for an image of the file's output size: a frame of another size
    // would put every pixel in the wrong place unless scaled on purpose.
    guard (frame.width, frame.height) == (fileWidth, fileHeight) || file.background?.resample == true else {
      throw fail(
        "background.image",
        "\(image) is \(frame.width)×\(frame.height), but the camera's intrinsics are for \(fileWidth)×\(fileHeight) (set background.resample to scale it)"
      )
    }
    return (frame.width, frame.height) == (width, height)
      ? frame.linear : Self.resample(frame.linear, width: width, height: height)
  }

  /// Object `index` of the file placed in the world, with its named points as targets; the
  /// first plane anchor's plane is kept in `anchorPlane`, its model's warnings added to
  /// `warnings`.
  func resolveObject(
    _ object: SceneFile.Object, index i: Int, camera: PinholeCamera<Double>, geoPlacement: GeoPlacement?,
    anchorPlane: inout (SIMD3<Double>, SIMD3<Double>)?, warnings: inout [String]
  ) throws(SceneError) -> (SceneObject, [SceneTarget]) {
    let field = "objects[\(i)]"
    var (worldFromModel, geoAnchor) = try placement(
      of: object, field, camera: camera, geoPlacement: geoPlacement, anchorPlane: &anchorPlane)
    var mesh: Mesh
    let asset: ModelAsset
    let modelPath = try resolvePath(object.model, field + ".model")
    do { asset = try ModelAsset.load(path: modelPath).requiringGeometry() } catch {
      throw .model(path: path, field: field + ".model", reason: error.description)
    }
    mesh = asset.mesh
    warnings += asset.warnings.map { "\(path): \(field).model: \($0)" }
    if let crs = object.crs {
      guard object.anchor == nil, object.worldFromModel == nil, object.transform == nil, object.points == nil
      else {
        throw fail(
          field + ".crs", "a model placed by its CRS takes no anchor, transform, world_from_model or points")
      }
      (mesh, geoAnchor) = try placeInCRS(mesh, crs: crs, geoPlacement, field + ".crs")
      worldFromModel = .identity
    }
    var placed = SceneObject(
      mesh: mesh, worldFromModel: worldFromModel, cullBackFaces: object.cullBackFaces ?? true)
    placed.geoAnchor = geoAnchor
    placed.embeddedImages = asset.embeddedImages
    if let label = object.label {
      placed.label = try resolveLabel(
        label, object: object, mesh: mesh, worldFromModel: worldFromModel, field + ".label")
    }
    var targets: [SceneTarget] = []
    if let points = object.points {
      (placed.pointMarkers, targets) = try pointMarkers(
        points, model: asset, object: i, worldFromModel: worldFromModel, field + ".points")
    }
    return (placed, targets)
  }

  /// Where an object's model goes: its matrix or transform, then its anchor (geo, marker or
  /// plane) if it has one; a geo-anchor is returned too, so that a new alignment can move it.
  func placement(
    of object: SceneFile.Object, _ field: String, camera: PinholeCamera<Double>, geoPlacement: GeoPlacement?,
    anchorPlane: inout (SIMD3<Double>, SIMD3<Double>)?
  ) throws(SceneError) -> (Matrix4<Float>, (anchor: GeoAnchor, anchorFromModel: Matrix4<Float>)?) {
    var worldFromModel: Matrix4<Float>
    if let m = object.worldFromModel {
      if object.anchor != nil { throw fail(field, "world_from_model and anchor exclude each other") }
      worldFromModel = try matrix(m, field + ".world_from_model")
    } else {
      worldFromModel = try transform(object.transform, field + ".transform")
    }
    guard let anchor = object.anchor else { return (worldFromModel, nil) }
    let anchors = [anchor.geo != nil, anchor.marker != nil, anchor.plane != nil].filter { $0 }.count
    guard anchors == 1 else { throw fail(field + ".anchor", "give exactly one of geo, marker, plane") }
    if let geo = anchor.geo {
      let (placement, geoAnchor) = try worldFromGeoAnchor(geo, geoPlacement, field + ".anchor.geo")
      return (placement * worldFromModel, (geoAnchor, worldFromModel))
    } else if let marker = anchor.marker {
      return (
        try worldFromMarkerAnchor(marker, camera: camera, field + ".anchor.marker") * worldFromModel, nil
      )
    } else if let plane = anchor.plane {
      let worldFromAnchor = try worldFromPlaneAnchor(plane, field + ".anchor.plane")
      if anchorPlane == nil {
        anchorPlane = (
          SIMD3<Double>(worldFromAnchor[column: 3].xyz), SIMD3<Double>(worldFromAnchor[column: 1].xyz)
        )
      }
      return (worldFromAnchor * worldFromModel, nil)
    }
    return (worldFromModel, nil)
  }

  /// An object's `label`: its text, and its height above the origin (default 10% of the
  /// model's height above its top).
  func resolveLabel(
    _ label: SceneFile.Label, object: SceneFile.Object, mesh: Mesh, worldFromModel: Matrix4<Float>,
    _ field: String
  ) throws(SceneError) -> SceneLabel {
    guard let text = label.text ?? object.name, !text.isEmpty else {
      throw fail(field + ".text", "a label needs a text (or the object a name)")
    }
    if let h = label.height, !h.isFinite { throw fail(field + ".height", "not a finite number of metres") }
    let bounds = mesh.bounds
    var low = Float.infinity, high = -Float.infinity
    for i in 0..<8 {
      let corner =
        SIMD3<Float>(mesh.origin)
        + SIMD3(
          i & 1 == 0 ? bounds.min.x : bounds.max.x, i & 2 == 0 ? bounds.min.y : bounds.max.y,
          i & 4 == 0 ? bounds.min.z : bounds.max.z)
      let y = (worldFromModel * SIMD4(corner, 1)).y
      (low, high) = (min(low, y), max(high, y))
    }
    let originY = worldFromModel.columns.3.y
    let height = label.height ?? Double(high - originY + 0.1 * (high - low))
    return SceneLabel(text: text, height: height.isFinite ? height : 0, showsDistance: label.distance ?? true)
  }

  /// The file's `shadow`, resolved: the plane given, else the plane anchor's, else y = 0.
  func shadows(lighting: Lighting, anchorPlane: (SIMD3<Double>, SIMD3<Double>)?) throws(SceneError)
    -> ShadowCatcher?
  {
    guard let shadow = file.shadow else { return nil }
    let index = shadow.light ?? 0
    guard lighting.directional.indices.contains(index) else {
      throw fail(
        "shadow.light",
        lighting.directional.isEmpty
          ? "shadows need a directional light (lights.directional is empty)"
          : "no directional light \(index) (there are \(lighting.directional.count))")
    }
    var (point, normal) = anchorPlane ?? (.zero, SIMD3(0, 1, 0))
    if let plane = shadow.plane {
      point = try vector(plane.point, 3, "shadow.plane.point")!
      normal = try vector(plane.normal, 3, "shadow.plane.normal")!
    }
    let catcher = ShadowCatcher(
      point: point, normal: normal, lightDirection: SIMD3<Double>(lighting.directional[index].direction),
      opacity: shadow.opacity ?? 0.5, softness: shadow.softness ?? 0.02, resolution: shadow.resolution ?? 1024
    )
    do { try catcher.validate() } catch { throw fail("shadow", error.description) }
    return catcher
  }

  /// The camera's lens: `camera.distortion` or `camera.fisheye` (not both), a pinhole without.
  func lens() throws(SceneError) -> LensDistortion {
    let c = file.camera
    if c.distortion != nil, c.fisheye != nil {
      throw fail("camera", "give distortion or fisheye, not both")
    }
    do {
      if let d = c.distortion { return try LensDistortion(opencv: d) }
      if let f = c.fisheye { return try LensDistortion(opencv: f, fisheye: true) }
    } catch { throw fail(c.distortion != nil ? "camera.distortion" : "camera.fisheye", error.description) }
    return .none
  }

  /// The file's camera at its output size, in `Double` as written, and its clip planes.
  func resolveCamera(width: Int, height: Int) throws(SceneError) -> (
    PinholeCamera<Double>, clipPlanes: ClosedRange<Double>
  ) {
    let c = file.camera
    let intrinsics: CameraIntrinsics<Double>
    if let k = c.intrinsics {
      do {
        intrinsics = try CameraIntrinsics(
          validatingFx: k.fx, fy: k.fy, cx: k.cx, cy: k.cy, width: width, height: height)
      } catch { throw fail("camera.intrinsics", error.description) }
    } else if let fov = c.verticalFovDeg {
      guard fov > 0, fov < 180 else { throw fail("camera.vertical_fov_deg", "must be in (0, 180)") }
      intrinsics = CameraIntrinsics(verticalFieldOfView: .degrees(fov), width: width, height: height)
    } else {
      throw fail("camera", "needs intrinsics or vertical_fov_deg")
    }
    let pose: RigidTransform<Double>
    if let m = c.worldFromCamera {
      let field = "camera.world_from_camera"
      let worldFromCamera = try matrix(m, field)
      do { pose = try RigidTransform(validatingMatrix: worldFromCamera) } catch {
        throw fail(field, error.description)
      }
    } else if let look = c.lookAt {
      let eye = try vector(look.eye, 3, "camera.look_at.eye")!,
        target = try vector(look.target, 3, "camera.look_at.target")!
      let up = try vector(look.up, 3, "camera.look_at.up") ?? SIMD3(0, 1, 0)
      guard let p = RigidTransform.lookAt(eye: eye, target: target, up: up) else {
        throw fail("camera.look_at", "eye equals target, or up is parallel to the view direction")
      }
      pose = p
    } else {
      throw fail("camera", "needs world_from_camera or look_at")
    }
    let near = c.near ?? Double(RenderCamera.defaultNear), far = c.far ?? Double(RenderCamera.defaultFar)
    // Checked as the renderer will use them, in `Float`.
    do { try RenderCamera.validateClipPlanes(near: Float(near), far: Float(far)) } catch {
      throw fail("camera", "needs 0 < near < far")
    }
    return (PinholeCamera(intrinsics: intrinsics, worldFromCamera: pose), near...far)
  }

  func transform(_ t: SceneFile.Transform?, _ field: String) throws(SceneError) -> Matrix4<Float> {
    guard let t else { return .identity }
    let translation = try vector(t.translation, 3, field + ".translation") ?? .zero
    let scale = try vector(t.scale, 3, field + ".scale") ?? SIMD3(1, 1, 1)
    var rotation = Quaternion<Float>.identity
    if let q = t.rotationXYZW {
      guard q.count == 4, let unit = Quaternion(vector: SIMD4(q[0], q[1], q[2], q[3])).normalizedOrNil()
      else {
        throw fail(field + ".rotation_xyzw", "expected a non-zero quaternion [x, y, z, w]")
      }
      rotation = unit
    } else if let yaw = t.yawDeg {
      guard yaw.isFinite else { throw fail(field + ".yaw_deg", "not a finite number") }
      rotation = Quaternion(angle: .degrees(yaw), axis: [0, 1, 0])
    }
    return Matrix4(linear: rotation.matrix * Matrix3(diagonal: scale), translation: translation)
  }

  func lighting() throws(SceneError) -> Lighting {
    guard let l = file.lights else { return Lighting() }
    var lighting = Lighting(
      ambient: try vector(l.ambient, 3, "lights.ambient") ?? .zero, directional: [], point: [])
    for (i, d) in (l.directional ?? []).enumerated() {
      let f = "lights.directional[\(i)]"
      let color = (try vector(d.color, 3, f + ".color") ?? SIMD3(1, 1, 1)) * (d.intensity ?? 1)
      lighting.directional.append((try vector(d.direction, 3, f + ".direction")!, color))
    }
    for (i, p) in (l.point ?? []).enumerated() {
      let f = "lights.point[\(i)]"
      let color = (try vector(p.color, 3, f + ".color") ?? SIMD3(1, 1, 1)) * (p.intensity ?? 1)
      lighting.point.append((try vector(p.position, 3, f + ".position")!, color))
    }
    return lighting
  }

  /// Bilinear resampling of a camera frame to the output size (pixel centres aligned).
  static func resample(_ image: LinearImage, width: Int, height: Int) -> LinearImage {
    if image.width == width && image.height == height { return image }
    var out = LinearImage(width: width, height: height, fill: .zero)
    for y in 0..<height {
      for x in 0..<width {
        let sx = (Float(x) + 0.5) * Float(image.width) / Float(width) - 0.5
        let sy = (Float(y) + 0.5) * Float(image.height) / Float(height) - 0.5
        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
        let ax = sx - Float(x0), ay = sy - Float(y0)
        func at(_ x: Int, _ y: Int) -> SIMD4<Float> {
          image[Swift.min(Swift.max(x, 0), image.width - 1), Swift.min(Swift.max(y, 0), image.height - 1)]
        }
        let top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * ax
        let bottom = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * ax
        out[x, y] = top + (bottom - top) * ay
      }
    }
    return out
  }
}
