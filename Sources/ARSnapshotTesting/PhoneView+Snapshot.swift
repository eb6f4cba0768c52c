import ARHit
import ARImage
import ARMath
import ARMesh
import ARRender
import ARTapTesting

/// What to draw in a phone's snapshot beside the model: the camera frame behind it, the targets
/// (highlighted ones larger, in another colour), their labels and the tap cursor.
public struct SnapshotOptions: Sendable {
  /// Pixels per view point: 1 keeps references small; 3 is an iPhone's screen.
  public var scale: Int = 1
  /// The camera image behind the content (the captured image, sensor orientation, the camera's
  /// image size), turned and aspect-filled as the view shows it; nil for ``backgroundColor``.
  public var cameraFrame: RGBA8Image?
  /// The background without a camera frame (8-bit sRGB).
  public var backgroundColor: SIMD3<UInt8> = SIMD3(38, 42, 48)
  /// Targets drawn larger and in ``highlightColor``.
  public var highlighted: Set<String> = []
  /// A tap to show, view points: a ring the size of a fingertip.
  public var tap: SIMD2<Double>?
  /// Each target's label, by name; a target not listed is labelled with its name, unless
  /// ``labelsTargets`` is off.
  public var labels: [String: String] = [:]
  /// Whether targets are labelled (with ``labels`` or their names).
  public var labelsTargets = true
  /// Whether the targets are drawn at all.
  public var drawsTargets = true
  /// A target's dot radius, and a highlighted one's, view points.
  public var targetRadius: (plain: Double, highlighted: Double) = (4, 7)
  /// A target's dot colour, linear RGB.
  public var targetColor = SIMD3<Float>(0.9, 0.75, 0.05)
  /// A highlighted target's dot colour, linear RGB.
  public var highlightColor = SIMD3<Float>(0.05, 0.55, 1)
  /// The labels' text colour, linear RGB (on a half-transparent dark box).
  public var labelColor = SIMD3<Float>(1, 1, 1)
  /// The tap cursor's colour, linear RGB.
  public var cursorColor = SIMD3<Float>(1, 0.1, 0.1)
  /// Label text size, points per em.
  public var labelSize: Double = 13
  /// Render threads (default: all cores). The image is the same for any count.
  public var threads: Int?
  /// Decoded texture images by their path as the models' materials name them
  /// (`Mesh.texturePaths`). A texture not given here is read when its file is a PNG (by
  /// ``PortablePNG``); a material with a texture that is neither (a JPEG, KTX2 or WebP image: no codec
  /// is linked) is drawn in its constant colours. A GLB's embedded PNGs are drawn the same way.
  public var textures: [String: RGBA8Image] = [:]
  /// Other models in view, drawn and hiding what is behind them but not tapped: the marker
  /// card under the hand, the ground under a building.
  public var scenery: [Scenery] = []

  /// A model drawn beside the scene's own.
  public struct Scenery: Sendable {
    /// The model, its own frame (metres).
    public var mesh: Mesh
    /// Model to world (metres).
    public var worldFromModel: RigidTransform<Double>
    /// A GLB's encoded images by texture path (`ModelAsset.embeddedImages`); PNGs among them
    /// are drawn.
    public var embeddedImages: [String: [UInt8]]

    /// `mesh` placed by `worldFromModel`, with the images a GLB carried.
    public init(
      mesh: Mesh, worldFromModel: RigidTransform<Double> = .identity, embeddedImages: [String: [UInt8]] = [:]
    ) {
      (self.mesh, self.worldFromModel, self.embeddedImages) = (mesh, worldFromModel, embeddedImages)
    }
  }

  /// Options as given; the rest default.
  public init(
    scale: Int = 1, cameraFrame: RGBA8Image? = nil, highlighting highlighted: Set<String> = [],
    tap: SIMD2<Double>? = nil, labels: [String: String] = [:]
  ) {
    (self.scale, self.cameraFrame, self.highlighted, self.tap, self.labels) = (
      scale, cameraFrame, highlighted, tap, labels
    )
  }
}

extension PhoneView {
  /// What this phone's screen shows, drawn on the CPU: the model, lit by a fixed light in the
  /// world, over the camera frame or a plain background, seen through the same view camera
  /// taps are hit-tested with (the image turned to the interface orientation and
  /// aspect-filled), at the view's size times `options.scale`; the targets the model does not
  /// hide as dots with their labels, the tap as a ring.
  ///
  /// The same scene, phone and options give the same bytes on every thread count, in debug and
  /// release builds: the rasterizer's sums run in a fixed order, and nothing here depends on
  /// the CPU's vector width.
  ///
  /// - Throws: ``SnapshotError/unrenderable(_:)`` when the view at that scale is not whole
  ///   pixels (or larger than 16384), the camera frame is not the camera's image size, or the
  ///   renderer refuses the model.
  public func snapshot(_ options: SnapshotOptions = SnapshotOptions()) throws(SnapshotError) -> RGBA8Image {
    let frame = try snapshotFrame(options)
    var image: RGBA8Image, depth: DepthImage
    do {
      let settings =
        try options.threads.map { try RenderSettings(samplesPerPixel: 1, threads: $0) } ?? RenderSettings()
      (image, depth) = try FrameRenderer().renderWithDepth(
        frame.draws, camera: frame.camera, shading: .lit(frame.lighting), background: frame.background,
        backgroundColor: frame.backgroundColor, settings: settings)
    } catch { throw .unrenderable("\(error)") }
    if options.drawsTargets { drawTargets(on: &image, depth: depth, options: options) }
    if let tap = options.tap {
      let scale = Double(options.scale)
      SnapshotMarks.ring(
        at: tap * scale, radius: 22 * scale, width: 2 * scale, color: options.cursorColor, on: &image)
    }
    return image
  }

  /// What ``snapshot(_:)`` hands the rasterizer before it draws the targets, labels and tap
  /// over its image: for drawing the same view with another renderer (the tests compare it with
  /// Mesa's llvmpipe).
  ///
  /// - Throws: ``SnapshotError/unrenderable(_:)`` as ``snapshot(_:)`` does.
  public func snapshotFrame(_ options: SnapshotOptions = SnapshotOptions()) throws(SnapshotError)
    -> SnapshotFrame
  {
    let view = tester.camera.viewport
    let scale = Double(options.scale)
    guard options.scale >= 1,
      let screen = try? TapViewport(
        size: view.size * scale, orientation: view.orientation, imageSize: view.imageSize),
      screen.pixelSize != nil
    else {
      throw .unrenderable(
        "a \(view.size.x)×\(view.size.y)-point view at scale \(options.scale) is not whole pixels")
    }
    var background: LinearImage?
    if let frame = options.cameraFrame {
      guard Double(frame.width) == view.imageSize.x, Double(frame.height) == view.imageSize.y else {
        throw .unrenderable(
          "the camera frame is \(frame.width)×\(frame.height) pixels, the camera's image \(Int(view.imageSize.x))×\(Int(view.imageSize.y))"
        )
      }
      background = screen.viewImage(frame.linear)
    }
    let models =
      [
        SnapshotOptions.Scenery(
          mesh: scene.mesh, worldFromModel: scene.worldFromModel, embeddedImages: scene.embeddedImages)
      ] + options.scenery
    var images = options.textures
    let draws: [DrawCall]
    do {
      draws = try models.map { model throws(SnapshotError) in
        let mesh = try Self.textured(model.mesh, embedded: model.embeddedImages, images: &images)
        do {
          return try DrawCall(
            mesh: mesh, worldFromModel: Matrix4<Float>(model.worldFromModel.matrix), cullBackFaces: false,
            textures: images)
        } catch { throw .unrenderable("\(error)") }
      }
    }
    let fill = SIMD3<Float>(options.backgroundColor) / 255
    return SnapshotFrame(
      camera: RenderCamera(screen.viewCamera(for: tester.camera.camera), near: 0.01, far: 1000), draws: draws,
      lighting: Lighting(), background: background,
      backgroundColor: SIMD4(SRGB.decode(fill.x), SRGB.decode(fill.y), SRGB.decode(fill.z), 1))
  }

  /// `mesh` with the textures `images` holds, or whose bytes (`embedded` in a GLB, or the file)
  /// are PNGs, decoded into `images`; a material with any other texture keeps its constant
  /// colours only. The paths were resolved, and kept inside the model's folder, when the model
  /// was read.
  ///
  /// - Throws: ``SnapshotError/unreadableReference(path:reason:)`` for a PNG texture that
  ///   cannot be read.
  static func textured(_ mesh: Mesh, embedded: [String: [UInt8]], images: inout [String: RGBA8Image])
    throws(SnapshotError) -> Mesh
  {
    var result = mesh
    for path in mesh.texturePaths where images[path] == nil {
      guard let bytes = embedded[path] ?? (try? SnapshotFiles.read(path)),
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
      else { continue }
      images[path] = try PortablePNG.decode(bytes, path: path)
    }
    for m in result.materials.indices
    where result.materials[m].texturePaths.contains(where: { images[$0] == nil }) {
      result.materials[m].removeTextures()
    }
    return result
  }

  /// The targets the model does not hide, as dots, and their labels beside them.
  private func drawTargets(on image: inout RGBA8Image, depth: DepthImage, options: SnapshotOptions) {
    let scale = Double(options.scale)
    for target in scene.targets {
      guard let (point, distance) = tester.camera.tapPoint(forWorldPoint: target.sphere.center) else {
        continue
      }
      let pixel = point * scale
      let (x, y) = (Int(pixel.x.rounded(.down)), Int(pixel.y.rounded(.down)))
      guard x >= 0, y >= 0, x < image.width, y < image.height else { continue }
      // Hidden where the model's surface is nearer than the target's sphere reaches.
      let surface = depth.pixels[y * image.width + x]
      if surface > 0, surface.isFinite, Double(surface) < distance - target.sphere.radius { continue }
      let highlighted = options.highlighted.contains(target.name)
      let radius = (highlighted ? options.targetRadius.highlighted : options.targetRadius.plain) * scale
      SnapshotMarks.disc(
        at: pixel, radius: radius, color: highlighted ? options.highlightColor : options.targetColor,
        on: &image)
      guard options.labelsTargets else { continue }
      let text = options.labels[target.name] ?? target.name
      let size = options.labelSize * scale
      // Right of the dot, or left of it where the screen's edge would cut the label.
      let width = Double(LabelFont.width(of: text, size: Float(size)))
      var origin = pixel + SIMD2(radius + 3 * scale, -radius)
      if origin.x + width + 0.2 * size > Double(image.width) {
        origin.x = max(0.2 * size, pixel.x - radius - 3 * scale - width)
      }
      SnapshotMarks.label(text, at: origin, size: size, color: options.labelColor, on: &image)
    }
  }
}
