import ARImage
import ARMath

/// Renders frame after frame, keeping its colour and depth buffers between frames of the same
/// size: a recording's frames then cost no allocation or page faults for the buffers.
/// Not thread-safe: one frame at a time per instance (each frame already uses every thread).
public final class FrameRenderer {
  private var target: RenderTarget?
  private let geometry = GeometryStage()
  /// The last shadow map, with what it was built from: a recording's frames mostly move the
  /// camera, not the content, and the map does not depend on the camera.
  private var shadowMapCache: (catcher: ShadowCatcher, casters: [DrawCall], map: ShadowMap?)?

  /// The shadow map of `draws` on `catcher`, built again only when they changed.
  private func shadowMap(_ catcher: ShadowCatcher, casting draws: [DrawCall], threads: Int) -> ShadowMap? {
    if let cache = shadowMapCache, cache.catcher == catcher, Self.sameCasters(cache.casters, draws) {
      return cache.map
    }
    let map = ShadowMap(casting: draws, onto: catcher, threads: threads)
    shadowMapCache = (catcher, draws, map)
    return map
  }

  /// Whether two lists of draw calls cast the same shadows: the same transforms of the very
  /// same vertex and index storage (the cache holds the old list, so its storage cannot be
  /// reused by another mesh while compared).
  private static func sameCasters(_ a: [DrawCall], _ b: [DrawCall]) -> Bool {
    guard a.count == b.count else { return false }
    func storage<T>(_ array: [T]) -> (UnsafeRawPointer?, Int) {
      array.withUnsafeBufferPointer { (UnsafeRawPointer($0.baseAddress), $0.count) }
    }
    return zip(a, b).allSatisfy { x, y in
      x.worldFromModel == y.worldFromModel && x.mesh.origin == y.mesh.origin
        && storage(x.mesh.positions) == storage(y.mesh.positions)
        && storage(x.mesh.indices) == storage(y.mesh.indices)
    }
  }

  /// A renderer with no buffers yet (they are made for the first frame's size).
  public init() {}

  /// Renders one frame; see ``Renderer/render(_:camera:shading:background:backgroundColor:settings:)``.
  public func render(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage? = nil,
    backgroundColor: SIMD4<Float> = SIMD4(0, 0, 0, 1), settings: RenderSettings = RenderSettings(),
    shadows: ShadowCatcher? = nil
  ) throws(RenderError) -> RGBA8Image {
    try validate(draws, camera: camera, background: background, settings: settings, shadows: shadows)
    let (width, height) = (camera.intrinsics.width, camera.intrinsics.height)
    let shadow = shadowLayer(shadows, casting: draws, camera: camera, threads: settings.threads)
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: width * height) { out, initialized in
      draw(
        draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
        shadow: shadow, settings: settings, output: out.baseAddress!)
      initialized = width * height
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// Renders one frame into `image`, reusing its pixels when it already has the camera's size
  /// (and is not shared): frame after frame of a recording then allocates nothing at all.
  public func render(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage? = nil,
    backgroundColor: SIMD4<Float> = SIMD4(0, 0, 0, 1), settings: RenderSettings = RenderSettings(),
    shadows: ShadowCatcher? = nil, into image: inout RGBA8Image
  ) throws(RenderError) {
    guard image.width == camera.intrinsics.width, image.height == camera.intrinsics.height else {
      image = try render(
        draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
        settings: settings, shadows: shadows)
      return
    }
    try validate(draws, camera: camera, background: background, settings: settings, shadows: shadows)
    let shadow = shadowLayer(shadows, casting: draws, camera: camera, threads: settings.threads)
    image.pixels.withUnsafeMutableBufferPointer { out in
      draw(
        draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
        shadow: shadow, settings: settings, output: out.baseAddress!)
    }
  }

  /// Renders one frame and its depth: each pixel's distance along the camera's view axis
  /// (metres, the camera's −Z) to the nearest opaque surface among its samples, +∞ where the
  /// background shows. Translucent surfaces leave no depth, as they write none. Where a
  /// shadow catcher's shadow shows and nothing else is drawn, the depth is its plane's.
  public func renderWithDepth(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage? = nil,
    backgroundColor: SIMD4<Float> = SIMD4(0, 0, 0, 1), settings: RenderSettings = RenderSettings(),
    shadows: ShadowCatcher? = nil
  ) throws(RenderError) -> (image: RGBA8Image, depth: DepthImage) {
    try validate(draws, camera: camera, background: background, settings: settings, shadows: shadows)
    let (width, height) = (camera.intrinsics.width, camera.intrinsics.height)
    let shadow = shadowLayer(shadows, casting: draws, camera: camera, threads: settings.threads)
    // Every pixel's distance is written as its tile is drawn.
    let count = width * height
    var depth: [Float] = []
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: count) { out, initialized in
      depth = [Float](unsafeUninitializedCapacity: count) { distances, written in
        draw(
          draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
          shadow: shadow, settings: settings, output: out.baseAddress!, distances: distances.baseAddress!)
        written = count
      }
      initialized = count
    }
    return (
      RGBA8Image(width: width, height: height, pixels: pixels),
      DepthImage(width: width, height: height, pixels: depth)
    )
  }

  /// `shadows`' shadow on `camera`'s pixels (its map cached between frames), nil without a
  /// catcher.
  private func shadowLayer(
    _ shadows: ShadowCatcher?, casting draws: [DrawCall], camera: RenderCamera, threads: Int
  ) -> ShadowLayer? {
    guard let shadows else { return nil }
    return shadows.shadowLayer(
      of: shadowMap(shadows, casting: draws, threads: threads), camera: camera, threads: threads)
  }

  private func validate(
    _ draws: [DrawCall], camera: RenderCamera, background: LinearImage?, settings: RenderSettings,
    shadows: ShadowCatcher? = nil
  ) throws(RenderError) {
    try shadows?.validate()
    let (width, height) = (camera.intrinsics.width, camera.intrinsics.height)
    guard (1...RenderSettings.maximumSide).contains(width), (1...RenderSettings.maximumSide).contains(height)
    else {
      throw .invalidSize(width: width, height: height)
    }
    try settings.validate()
    try RenderCamera.validateClipPlanes(near: camera.near, far: camera.far)
    guard camera.worldFromCamera.isFinite else { throw .notFinite("the camera pose") }
    for d in draws where !d.worldFromModel.isFinite { throw .notFinite("a model transform") }
    if let background, background.width != width || background.height != height {
      throw .invalidSettings(
        "the background is \(background.width)×\(background.height), the output \(width)×\(height)")
    }
  }

  /// Renders a validated frame into `output` (the camera's width × height pixels).
  private func draw(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage?,
    backgroundColor: SIMD4<Float>, shadow: ShadowLayer?, settings: RenderSettings,
    output: UnsafeMutablePointer<SIMD4<UInt8>>, distances: UnsafeMutablePointer<Float>? = nil
  ) {
    guard let shadow else {
      return draw(
        draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
        shadowView: nil, settings: settings, output: output, distances: distances)
    }
    shadow.withView { view in
      draw(
        draws, camera: camera, shading: shading, background: background, backgroundColor: backgroundColor,
        shadowView: view, settings: settings, output: output, distances: distances)
    }
  }

  /// ``draw(_:camera:shading:background:backgroundColor:shadow:settings:output:distances:)``
  /// with the shadow layer's storage in reach.
  private func draw(
    _ draws: [DrawCall], camera: RenderCamera, shading: ShadingMode, background: LinearImage?,
    backgroundColor: SIMD4<Float>, shadowView: ShadowLayer.View?, settings: RenderSettings,
    output: UnsafeMutablePointer<SIMD4<UInt8>>, distances: UnsafeMutablePointer<Float>?
  ) {
    let (width, height) = (camera.intrinsics.width, camera.intrinsics.height)
    let s = settings.supersampling
    var sampleCamera = camera
    sampleCamera.intrinsics = camera.intrinsics.scaled(toWidth: width * s, height: height * s)
    let (sw, sh) = (width * s, height * s)
    if target?.width != sw || target?.height != sh || target?.factor != s {
      target = RenderTarget(width: sw, height: sh, factor: s)
    }
    let target = self.target!
    target.background = background
    target.backgroundColor = backgroundColor
    target.distances = distances
    target.shadow = shadowView
    target.near = camera.near
    defer { (target.distances, target.shadow) = (nil, nil) }
    let isLit = { if case .lit = shading { true } else { false } }()
    let isUnlit = { if case .unlit = shading { true } else { false } }()
    geometry.run(
      draws, camera: sampleCamera, width: sw, height: sh, tileSize: target.tileSize,
      sortTranslucent: isLit, attributes: !isUnlit, threads: settings.threads)
    // Samples are averaged (supersampling) or blended (translucent triangles) in each worker's
    // linear tile, encoded once per pixel when the tile is done; so are lit samples drawn over one
    // another (a wall in front of a wall is encoded once, not per layer). Otherwise each sample is
    // a pixel and goes straight into the output bytes: flat colours are encoded once per
    // triangle, and lit opaque samples once each, as hidden surfaces are removed before shading.
    let encoding = EncodedSamples(bytes: output, srgb: isLit ? SRGB.Encoder.shared : nil)
    let blends = isLit && !geometry.translucent.triangles.isEmpty
    // Hidden surfaces are removed on the short ways only (the general path is the reference).
    let removesHiddenSurfaces = settings.fastPaths && settings.removesHiddenSurfaces
    let overdraws = isLit && !removesHiddenSurfaces
    let route: Renderer.SampleRoute =
      s == 1 && !blends && !overdraws ? .direct(encoding) : .resolved(into: encoding)
    let threads = settings.threads
    switch shading {
    case .unlit:
      Renderer.rasterize(
        geometry, into: target, route: route, shader: FlatShader(lambertTowards: nil), threads: threads)
    case .lambert(let l):
      Renderer.rasterize(
        geometry, into: target, route: route, shader: FlatShader(lambertTowards: l), threads: threads)
    case .lit(let lighting):
      // Shading happens in the frame the vertex stage used: the world shifted to a point near
      // the camera.
      let origin = camera.shadingOrigin
      LitShader.make(
        draws: draws, lighting: lighting.relative(to: origin),
        cameraPosition: SIMD3<Float>(camera.worldFromCamera.translation - origin),
        fastPaths: settings.fastPaths, defersShading: removesHiddenSurfaces
      ) { shader in
        Renderer.rasterize(geometry, into: target, route: route, shader: shader, threads: threads)
      }
    }
  }
}
