import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARTestSupport
import Foundation
import Testing

@testable import ARRender

/// The rasterization rules, checked exactly.
@Suite("Rasterizer rules")
struct RasterRuleTests {
  /// A camera 1 m in front of the z = 0 plane looking down −Z, with 1 pixel = 1 cm there when
  /// `fx = fy = 100` on a `size × size` image centred on the origin.
  func camera(size: Int, focal: Float = 100) -> RenderCamera {
    RenderCamera(
      intrinsics: CameraIntrinsics(
        fx: focal, fy: focal, cx: Float(size) / 2, cy: Float(size) / 2, width: size, height: size),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 1]), near: 0.1, far: 10)
  }

  /// Counts how many triangles cover each pixel, by rendering each triangle alone.
  func coverage(_ mesh: Mesh, camera: RenderCamera) throws -> [Int] {
    var counts = [Int](repeating: 0, count: camera.intrinsics.width * camera.intrinsics.height)
    for t in 0..<mesh.triangleCount {
      let (a, b, c) = mesh.triangle(t)
      let one = Mesh(
        positions: [mesh.positions[a], mesh.positions[b], mesh.positions[c]],
        normals: [[0, 0, 1], [0, 0, 1], [0, 0, 1]], indices: [0, 1, 2])
      let image = try Renderer.render(
        [try DrawCall(mesh: one, cullBackFaces: false)], camera: camera, shading: .unlit)
      for (i, p) in image.pixels.enumerated() where p.x == 255 { counts[i] += 1 }
    }
    return counts
  }

  @Test("abutting triangles of a random fan-and-grid mesh cover every pixel of their area exactly once")
  func fillRule() throws {
    var rng = SplitMix64(seed: 701)
    // A 6×6 grid of jittered points spanning the image, every cell split into two triangles
    // along a random diagonal: shared edges at every angle, vertices at sub-pixel positions.
    let n = 6
    var points: [SIMD3<Float>] = []
    for j in 0...n {
      for i in 0...n {
        let inner = i > 0 && i < n && j > 0 && j < n
        let jitter: SIMD2<Float> = inner ? SIMD2(rng.scalar(-0.05...0.05), rng.scalar(-0.05...0.05)) : .zero
        points.append(
          SIMD3(Float(i) / Float(n) * 0.6 - 0.3 + jitter.x, Float(j) / Float(n) * 0.6 - 0.3 + jitter.y, 0))
      }
    }
    var indices: [UInt32] = []
    for j in 0..<n {
      for i in 0..<n {
        let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1) + 1, d = a + UInt32(n + 1)
        indices += Bool.random(using: &rng) ? [a, b, c, a, c, d] : [a, b, d, b, c, d]
      }
    }
    let mesh = Mesh(
      positions: points, normals: Array(repeating: [0, 0, 1], count: points.count), indices: indices)
    let counts = try coverage(mesh, camera: camera(size: 64))
    // The square spans x, y in [−0.3, 0.3] m = pixels [2, 62): inside, exactly once; outside, never.
    for y in 0..<64 {
      for x in 0..<64 {
        let inside = (2..<62).contains(x) && (2..<62).contains(y)
        #expect(counts[y * 64 + x] == (inside ? 1 : 0), "pixel \(x), \(y)")
      }
    }
  }

  @Test(
    "a centre exactly on a shared edge belongs to the triangle whose left or bottom edge it is (GL's rule)"
  )
  func edgeOwnership() throws {
    // 1 pixel = 1/64 m on the z = 0 plane: pixel centres are exact binary fractions, so these
    // edges run exactly through rows and columns of centres.
    let cam = camera(size: 64, focal: 64)
    func centre(_ i: Int, _ j: Int) -> SIMD3<Float> {
      SIMD3((Float(i) + 0.5 - 32) / 64, (32 - Float(j) - 0.5) / 64, 0)
    }
    /// The pixels a quad with corners at the centres of columns `i0…i1` and rows `j0…j1` covers.
    func covered(_ i0: Int, _ i1: Int, _ j0: Int, _ j1: Int) throws -> (Int, Int) -> Bool {
      let quad = Mesh(
        positions: [centre(i0, j1), centre(i1, j1), centre(i1, j0), centre(i0, j0)],
        normals: Array(repeating: [0, 0, 1], count: 4), indices: [0, 1, 2, 0, 2, 3])
      let image = try Renderer.render(
        [try DrawCall(mesh: quad, cullBackFaces: false)], camera: cam, shading: .unlit)
      return { x, y in image[x, y].x == 255 }
    }
    // Stacked: the shared row 20 goes to the upper quad (it is that quad's bottom edge).
    let upper = try covered(10, 30, 10, 20), lower = try covered(10, 30, 20, 30)
    #expect(upper(25, 20) && !lower(25, 20))
    #expect(!upper(25, 10) && upper(25, 11), "a top edge is exclusive")
    #expect(lower(25, 30) && !lower(25, 31), "a bottom edge is inclusive")
    // Side by side: the shared column 20 goes to the right-hand quad (its left edge).
    let left = try covered(10, 20, 40, 50), right = try covered(20, 30, 40, 50)
    #expect(right(20, 45) && !left(20, 45))
    #expect(left(10, 45) && !left(9, 45), "a left edge is inclusive")
    #expect(!right(30, 45) && right(29, 45), "a right edge is exclusive")
  }

  @Test("a triangle crossing the near plane is clipped, not wrapped around")
  func nearPlane() throws {
    // A floor triangle from 2 m behind the camera (at z = 1) to 6 m in front of it.
    let floor = Mesh(
      positions: [[-1, -0.5, 3], [1, -0.5, 3], [0, -0.5, -5]],
      normals: Array(repeating: [0, 1, 0], count: 3),
      indices: [0, 2, 1])
    let cam = camera(size: 64)
    let image = try Renderer.render(
      [try DrawCall(mesh: floor, cullBackFaces: false)], camera: cam, shading: .unlit)
    // The floor is below the horizon (y > 32) only; nothing above it, and the bottom rows near
    // the camera are covered (the near-plane cut runs across the bottom of the image).
    for y in 0..<32 { for x in 0..<64 { #expect(image[x, y].x == 0, "pixel \(x), \(y) above the horizon") } }
    #expect(image[32, 63].x == 255)
    #expect(image[32, 50].x == 255)
    // Geometry entirely behind the camera draws nothing.
    let behind = Mesh(
      positions: [[-1, 0, 2], [1, 0, 2], [0, 1, 2]], normals: Array(repeating: [0, 0, 1], count: 3),
      indices: [0, 1, 2])
    let none = try Renderer.render(
      [try DrawCall(mesh: behind, cullBackFaces: false)], camera: cam, shading: .unlit)
    #expect(none.pixels.allSatisfy { $0.x == 0 })
  }

  @Test("perspective-correct texturing of a checkerboard plane matches the analytic pattern")
  func perspectiveCorrect() throws {
    // A 2×20 m floor textured with an 8×8 checker (texture scaled ×5 → 40×... squares), seen at
    // a grazing angle. For each pixel centre, intersect its ray with the floor and compare the
    // analytic checker colour; only pixels near a square boundary may differ (bilinear filter).
    let size = 96
    let texturePath = Fixtures.path("obj/textures/checker board.png")
    var material = Material(name: "floor")
    material.diffuse = [1, 1, 1]
    var reference = TextureReference(path: texturePath)
    reference.scale = [1, 1, 1]
    material.diffuseTexture = reference
    let floor = Mesh(
      positions: [[-1, 0, 0], [1, 0, 0], [1, 0, -20], [-1, 0, -20]],
      normals: Array(repeating: [0, 1, 0], count: 4),
      texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]], indices: [0, 1, 2, 0, 2, 3], materials: [material])
    let cam = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 80, fy: 80, cx: 48, cy: 48, width: size, height: size),
      worldFromCamera: RigidTransform.lookAt(eye: [0, 0.6, 0.5], target: [0, 0, -4], up: [0, 1, 0])!,
      near: 0.05, far: 50)
    let lighting = Lighting(ambient: [1, 1, 1], directional: [], point: [])
    let image = try Renderer.render(
      [try DrawCall(mesh: floor, textures: [texturePath: try ImageFile.readRGBA8(texturePath)])], camera: cam,
      shading: .lit(lighting))
    let pinhole = PinholeCamera(
      intrinsics: CameraIntrinsics<Double>(fx: 80, fy: 80, cx: 48, cy: 48, width: size, height: size),
      worldFromCamera: RigidTransform(
        rotation: Quaternion(vector: SIMD4<Double>(cam.worldFromCamera.rotation.vector)),
        translation: SIMD3<Double>(cam.worldFromCamera.translation)))
    var compared = 0, mismatched = 0
    for y in 0..<size {
      for x in 0..<size {
        let ray = pinhole.ray(through: [Double(x) + 0.5, Double(y) + 0.5])
        guard ray.direction.y < -1e-3 else { continue }
        let t = -ray.origin.y / ray.direction.y
        let p = ray.point(at: t)
        guard abs(p.x) < 0.98, p.z < -0.02, p.z > -19.9 else { continue }
        let (u, v) = ((p.x + 1) / 2, -p.z / 20)
        let (tx, ty) = (u * 8, (1 - v) * 8)  // texel coordinates, rows from the top
        // Squares are 2 texels: skip pixels whose footprint straddles a square boundary.
        let fu = (tx / 2).truncatingRemainder(dividingBy: 1), fv = (ty / 2).truncatingRemainder(dividingBy: 1)
        guard min(fu, 1 - fu) > 0.3, min(fv, 1 - fv) > 0.3 else { continue }
        let light = (Int(tx / 2) + Int(ty / 2)) % 2 == 0
        compared += 1
        if (image[x, y].x > 128) != light { mismatched += 1 }
      }
    }
    #expect(compared > 250)
    #expect(mismatched == 0)
  }

  @Test("mipmapping: a fine checker far away averages to grey instead of aliasing")
  func mipmaps() throws {
    var material = Material(name: "fine")
    material.diffuse = [1, 1, 1]
    let texturePath = Fixtures.path("obj/textures/checker board.png")
    var reference = TextureReference(path: texturePath)
    reference.scale = [40, 40, 1]  // 160 squares across 20 m
    material.diffuseTexture = reference
    let floor = Mesh(
      positions: [[-10, 0, 0], [10, 0, 0], [10, 0, -200], [-10, 0, -200]],
      normals: Array(repeating: [0, 1, 0], count: 4),
      texcoords: [[0, 0], [1, 0], [1, 10], [0, 10]], indices: [0, 1, 2, 0, 2, 3], materials: [material])
    let cam = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 100, fy: 100, cx: 64, cy: 64, width: 128, height: 128),
      worldFromCamera: RigidTransform.lookAt(eye: [0, 1.5, 0], target: [0, 0, -30], up: [0, 1, 0])!,
      near: 0.05, far: 500)
    let image = try Renderer.render(
      [try DrawCall(mesh: floor, textures: [texturePath: try ImageFile.readRGBA8(texturePath)])], camera: cam,
      shading: .lit(Lighting(ambient: [1, 1, 1], directional: [], point: [])))
    // Far rows (just below the horizon): every square is much smaller than a pixel, so each pixel
    // should be close to the mean of light and dark in linear light, encoded: about 170.
    let linearMean = (SRGB.decode(230 / 255) + SRGB.decode(40 / 255)) / 2
    let expected = Float(SRGB.encode8(linearMean))
    var worst: Float = 0
    for y in 70..<76 { for x in 20..<108 { worst = Swift.max(worst, abs(Float(image[x, y].x) - expected)) } }
    #expect(worst < 24, "largest deviation from the mean \(expected): \(worst)")
  }

  @Test("the thread count does not change a single byte")
  func threadIndependence() throws {
    var rng = SplitMix64(seed: 702)
    var positions: [SIMD3<Float>] = [], indices: [UInt32] = []
    for k in 0..<120 {
      let c: SIMD3<Float> = SIMD3(rng.scalar(-1...1), rng.scalar(-1...1), rng.scalar(-3 ... -0.5))
      for _ in 0..<3 { positions.append(c + SIMD3<Float>(rng.vector3(-0.3...0.3))) }
      indices += [UInt32(3 * k), UInt32(3 * k + 1), UInt32(3 * k + 2)]
    }
    let normals: [SIMD3<Float>] = positions.map { _ in rng.unitVector3() }
    let mesh = Mesh(positions: positions, normals: normals, indices: indices)
    let cam = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 150, fy: 150, cx: 80, cy: 60, width: 160, height: 120),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 1]))
    let draw = try DrawCall(mesh: mesh, cullBackFaces: false)
    // Both sample routes: 8-bit straight into the image (no supersampling) and linear tiles
    // resolved one by one (tiles of 64 samples, or 63 for a factor of 3).
    for factor in [1, 2, 3] {
      let reference = try Renderer.render(
        [draw], camera: cam, shading: .lit(Lighting()),
        settings: RenderSettings(supersampling: factor, threads: 1))
      // A reused renderer clears its kept buffers: the second frame equals the first, also when
      // it renders into the image of the previous frame.
      let renderer = FrameRenderer()
      var reused = RGBA8Image(width: 0, height: 0, pixels: [])
      for _ in 0..<2 {
        let again = try renderer.render(
          [draw], camera: cam, shading: .lit(Lighting()),
          settings: RenderSettings(supersampling: factor, threads: 1))
        #expect(again == reference)
        try renderer.render(
          [draw], camera: cam, shading: .lit(Lighting()),
          settings: RenderSettings(supersampling: factor, threads: 2), into: &reused)
        #expect(reused == reference)
      }
      for threads in [2, 3, 7, 16] {
        let image = try Renderer.render(
          [draw], camera: cam, shading: .lit(Lighting()),
          settings: RenderSettings(supersampling: factor, threads: threads))
        #expect(image == reference, "\(threads) threads, supersampling \(factor)")
      }
    }
  }

  /// 400 overlapping triangles of every size with random colours, normals and texture
  /// coordinates; with `duplicates`, some drawn again at once at the same place in magenta,
  /// wound the other way round when `reversed` (so facing the other way).
  func overlappingTriangles(duplicates: Bool, reversed: Bool = false) -> Mesh {
    var rng = SplitMix64(seed: 4_107)
    var positions: [SIMD3<Float>] = [], colors: [SIMD3<Float>] = [], texcoords: [SIMD2<Float>] = []
    var normals: [SIMD3<Float>] = [], indices: [UInt32] = []
    for _ in 0..<400 {
      let c = SIMD3<Float>(rng.scalar(-1...1), rng.scalar(-0.8...0.8), rng.scalar(-2 ... -0.3))
      let size: Float = rng.scalar(0...1) < 0.8 ? 0.03 : 0.6
      let corners = (0..<3).map { _ in c + SIMD3<Float>(rng.vector3(-size...size)) }
      let vertexColors = (0..<3).map { _ in SIMD3<Float>(rng.vector3(0...1)) }
      let uv = (0..<3).map { _ in SIMD2<Float>(rng.scalar(-2...2), rng.scalar(-2...2)) }
      let n: [SIMD3<Float>] = (0..<3).map { _ in rng.unitVector3() }
      let copies = rng.scalar(0...1) < 0.3 ? 2 : 1
      for copy in 0..<(duplicates ? copies : 1) {
        let order: [Int] = copy == 1 && reversed ? [0, 2, 1] : [0, 1, 2]
        indices += order.map { UInt32(positions.count + $0) }
        positions += corners
        colors += copy == 0 ? vertexColors : Array(repeating: [1, 0, 1], count: 3)
        texcoords += uv
        normals += n
      }
    }
    return Mesh(
      positions: positions, normals: normals, texcoords: texcoords, colors: colors, indices: indices)
  }

  @Test(
    "removing hidden surfaces before shading gives the bytes of shading every sample in front",
    arguments: [1, 2, 3])
  func visibilityPassEqualsImmediate(factor: Int) throws {
    // Runs of opaque, textured, cut-out and translucent materials, so that the tiles'
    // visibility passes are interrupted by triangles drawn at once, and resumed.
    // A checker, opaque, and with its blue squares transparent (a cut-out material).
    var textures: [String: RGBA8Image] = [:]
    for (name, alpha) in [("opaque", 255), ("cut-out", 0)] as [(String, UInt8)] {
      textures[name] = RGBA8Image(
        width: 8, height: 8,
        pixels: (0..<64).map { i in (i % 8 + i / 8) % 2 == 0 ? [250, 200, 40, 255] : [20, 60, 200, alpha] })
    }
    var plain = Material(name: "plain"), textured = Material(name: "textured")
    plain.specular = [0.5, 0.5, 0.5]
    textured.diffuseTexture = TextureReference(path: "opaque")
    var cutOut = textured
    cutOut.diffuseTexture = TextureReference(path: "cut-out")
    var glass = Material(name: "glass")
    glass.opacity = 0.5
    var mesh = overlappingTriangles(duplicates: true)
    mesh.submeshes = stride(from: 0, to: mesh.triangleCount, by: 37).map {
      Mesh.Submesh(triangles: $0..<Swift.min($0 + 37, mesh.triangleCount), material: ($0 / 37) % 5)
    }
    let cam = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 150, fy: 150, cx: 100, cy: 75, width: 200, height: 150),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 1]))
    // Ambient light alone (textured samples take the one-pass way), and the sun and a lamp.
    let lightings = [
      Lighting(ambient: [1, 1, 1], directional: []),
      Lighting(point: [(position: [0, 1, 0], color: [2, 2, 2])]),
    ]
    // With glass the samples are blended in linear tiles; without, lit samples of one a pixel go
    // straight into the output bytes.
    for fifth in [glass, plain] {
      mesh.materials = [plain, textured, cutOut, textured, fifth]
      let draw = try DrawCall(mesh: mesh, cullBackFaces: false, textures: textures)
      for lighting in lightings {
        let (image, expected) = try shortWaysAndGeneralPath(
          [draw], camera: cam, lighting: lighting, factor: factor)
        let differing = zip(image.pixels, expected.pixels).count { $0 != $1 }
        #expect(differing == 0, "\(fifth.name), factor \(factor): \(differing) pixels differ")
        // The short ways without hidden-surface removal: the same bytes again.
        var everySample = RenderSettings(supersampling: factor, threads: 2)
        everySample.removesHiddenSurfaces = false
        let shadedAtOnce = try Renderer.render(
          [draw], camera: cam, shading: .lit(lighting), settings: everySample)
        #expect(shadedAtOnce == expected, "\(fifth.name), factor \(factor), hidden surfaces kept")
      }
    }
    // Equal depths: the triangle drawn first stays, so the magenta copies change nothing.
    let once = try Renderer.render(
      [try DrawCall(mesh: overlappingTriangles(duplicates: false), cullBackFaces: false)], camera: cam,
      shading: .lit(Lighting()), settings: RenderSettings(supersampling: factor, threads: 2))
    let twice = try Renderer.render(
      [try DrawCall(mesh: overlappingTriangles(duplicates: true), cullBackFaces: false)], camera: cam,
      shading: .lit(Lighting()), settings: RenderSettings(supersampling: factor, threads: 2))
    #expect(once == twice)
    // Copies wound the other way face the other way, and may be marked before the triangles
    // they copy (see `MarkingOrder`): where their depths tie, the one drawn first still stays.
    // (Not everywhere the image without copies: where the frustum clips a triangle, its
    // pieces depend on its winding.)
    let reversed = try DrawCall(
      mesh: overlappingTriangles(duplicates: true, reversed: true), cullBackFaces: false)
    let (image, expected) = try shortWaysAndGeneralPath(
      [reversed], camera: cam, lighting: Lighting(), factor: factor)
    let differing = zip(image.pixels, expected.pixels).count { $0 != $1 }
    #expect(differing == 0, "copies reversed, factor \(factor): \(differing) pixels differ")
  }

  @Test(
    "a closed mesh drawn without culling, back faces hidden behind its front, in both windings",
    arguments: [false, true])
  func hiddenBackFaces(reversed: Bool) throws {
    // A UV sphere ring by ring, as models are often laid out: in each ring the front faces come
    // before the back faces behind them, and in the lower half the back faces come before the
    // front ones that hide them. Each tile marks the faces of its nearer facing first, whichever
    // way the mesh is wound (see `MarkingOrder`), and the others once tested hidden skip marking.
    let n = 40
    var positions: [SIMD3<Float>] = [], indices: [UInt32] = []
    for j in 0...n {
      for i in 0...n {
        let (theta, phi) = (Float(j) / Float(n) * .pi, Float(i) / Float(n) * 2 * .pi)
        positions.append(SIMD3(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)) * 0.8)
      }
    }
    for j in 0..<n {
      for i in 0..<n {
        let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
        indices += reversed ? [a, b, c, b, d, c] : [a, c, b, b, c, d]
      }
    }
    let mesh = Mesh(positions: positions, normals: positions, indices: indices)
    let cam = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 150, fy: 150, cx: 80, cy: 60, width: 160, height: 120),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0.3, 2]))
    let draw = try DrawCall(mesh: mesh, cullBackFaces: false)
    var everySample = RenderSettings(threads: 2)
    everySample.removesHiddenSurfaces = false
    let expected = try Renderer.render(
      [draw], camera: cam, shading: .lit(Lighting()), settings: everySample)
    let image = try Renderer.render(
      [draw], camera: cam, shading: .lit(Lighting()), settings: RenderSettings(threads: 2))
    #expect(image == expected)
    // Wound counter-clockwise seen from outside, its front alone (back faces culled) gives the
    // same picture: nothing behind shows through. (Wound the other way, what shows is lit as
    // back faces, two-sided.)
    if reversed {
      let culled = try Renderer.render(
        [try DrawCall(mesh: mesh, cullBackFaces: true)], camera: cam, shading: .lit(Lighting()),
        settings: RenderSettings(threads: 2))
      #expect(image == culled)
    }
  }

  @Test("bad sizes, settings and NaN transforms are refused")
  func badInput() throws {
    var cam = camera(size: 8)
    cam.intrinsics.width = 0
    #expect(throws: RenderError.invalidSize(width: 0, height: 8)) {
      try Renderer.render([], camera: cam, shading: .unlit)
    }
    cam = camera(size: 8)
    cam.near = 0
    expectError(RenderError.self, "invalidSettings") { try Renderer.render([], camera: cam, shading: .unlit) }
    let mesh = Mesh(
      positions: [[0, 0, 0], [1, 0, 0], [0, 1, 0]], normals: Array(repeating: [0, 0, 1], count: 3),
      indices: [0, 1, 2])
    let draw = try DrawCall(mesh: mesh, worldFromModel: .translation([.nan, 0, 0]))
    #expect(throws: RenderError.notFinite("a model transform")) {
      try Renderer.render([draw], camera: camera(size: 8), shading: .unlit)
    }
  }

  /// `draws` rendered lit by `lighting` on two threads with `factor × factor` samples a pixel:
  /// the short ways (the default), and the general path they must match byte for byte.
  func shortWaysAndGeneralPath(
    _ draws: [DrawCall], camera: RenderCamera, lighting: Lighting, factor: Int
  ) throws -> (image: RGBA8Image, expected: RGBA8Image) {
    var general = RenderSettings(supersampling: factor, threads: 2)
    general.fastPaths = false
    return (
      try Renderer.render(
        draws, camera: camera, shading: .lit(lighting),
        settings: RenderSettings(supersampling: factor, threads: 2)),
      try Renderer.render(draws, camera: camera, shading: .lit(lighting), settings: general)
    )
  }

  @Test(
    "a white texture in white ambient light is drawn as the general path draws it",
    arguments: [1, 2])
  func bakedTexture(factor: Int) throws {
    // A texture with its lighting baked in, on a floor that runs from magnified at the camera to
    // minified far away (levels blended), repeated and clamped.
    var rng = SplitMix64(seed: 4_108)
    let texture = RGBA8Image(
      width: 16, height: 16,
      pixels: (0..<256).map { _ in
        SIMD4(UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 128, 255)
      })
    let path = "baked"
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics(fx: 60, fy: 60, cx: 40, cy: 30, width: 80, height: 60),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 1]))
    for clamp in [false, true] {
      var material = Material(name: "baked")
      material.diffuse = [1, 1, 1]
      material.diffuseTexture = TextureReference(path: path)
      material.diffuseTexture?.clamp = clamp
      let floor = Mesh(
        positions: [[-4, -1, 0], [4, -1, 0], [4, -1, -40], [-4, -1, -40]],
        normals: Array(repeating: [0, 1, 0], count: 4),
        texcoords: [[0, 0], [6, 0], [6, 30], [0, 30]].map { clamp ? $0 / 30 : $0 },
        indices: [0, 1, 2, 0, 2, 3], materials: [material])
      let draw = try DrawCall(mesh: floor, textures: [path: texture])
      let (image, expected) = try shortWaysAndGeneralPath(
        [draw], camera: camera, lighting: Lighting(ambient: [1, 1, 1], directional: []), factor: factor)
      let differing = zip(image.pixels, expected.pixels).count { $0 != $1 }
      #expect(differing == 0, "clamp \(clamp), factor \(factor): \(differing) pixels differ")
      #expect(Set(image.pixels).count > 100, "the floor is textured")
    }
  }
}

@Suite("Transparency")
struct TransparencyTests {
  func quad(z: Float, color: SIMD3<Float>, opacity: Float) -> Mesh {
    var material = Material(name: "glass")
    material.diffuse = color
    material.opacity = opacity
    return Mesh(
      positions: [[-1, -1, z], [1, -1, z], [1, 1, z], [-1, 1, z]],
      normals: Array(repeating: [0, 0, 1], count: 4),
      indices: [0, 1, 2, 0, 2, 3], materials: [material])
  }

  let camera = RenderCamera(
    intrinsics: CameraIntrinsics(fx: 20, fy: 20, cx: 8, cy: 8, width: 16, height: 16),
    worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 3]))
  let light = Lighting(ambient: [1, 1, 1], directional: [], point: [])

  /// A screen-filling quad with uv 0…1 in `material`, lit by ambient white, over blue.
  func renderTexturedQuad(_ material: Material, textures: [String: RGBA8Image]) throws -> RGBA8Image {
    let mesh = Mesh(
      positions: [[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]],
      normals: Array(repeating: [0, 0, 1], count: 4),
      texcoords: [[0, 0], [1, 0], [1, 1], [0, 1]], indices: [0, 1, 2, 0, 2, 3], materials: [material])
    return try Renderer.render(
      [try DrawCall(mesh: mesh, textures: textures)], camera: camera, shading: .lit(light),
      backgroundColor: [0, 0, 1, 1])
  }

  @Test("translucent surfaces blend back to front whatever their draw order")
  func sorted() throws {
    let near = try DrawCall(mesh: quad(z: 0.5, color: [1, 0, 0], opacity: 0.5))
    let far = try DrawCall(mesh: quad(z: -0.5, color: [0, 0, 1], opacity: 0.5))
    let a = try Renderer.render([near, far], camera: camera, shading: .lit(light))
    let b = try Renderer.render([far, near], camera: camera, shading: .lit(light))
    #expect(a == b)
    // Red over (blue over black): linear red 0.5, blue 0.25, encoded.
    #expect(a[8, 8] == SIMD4(SRGB.encode8(0.5), 0, SRGB.encode8(0.25), 255))
  }

  @Test("an opaque surface in front hides a translucent one behind it")
  func opaqueHides() throws {
    let wall = try DrawCall(mesh: quad(z: 0.5, color: [0, 1, 0], opacity: 1))
    let glass = try DrawCall(mesh: quad(z: -0.5, color: [1, 0, 0], opacity: 0.5))
    let image = try Renderer.render([glass, wall], camera: camera, shading: .lit(light))
    #expect(image[8, 8] == [0, 255, 0, 255])
  }

  @Test("a texture with alpha cuts out: pixels below 0.5 are discarded, the rest opaque")
  func cutOut() throws {
    // Left half of the texture transparent, right half opaque white.
    let texture = RGBA8Image(
      width: 4, height: 1,
      pixels: [[255, 255, 255, 0], [255, 255, 255, 0], [255, 255, 255, 255], [255, 255, 255, 255]])
    var material = Material(name: "leaf")
    material.diffuse = [1, 1, 1]
    var reference = TextureReference(path: "leaf")
    reference.clamp = true
    material.diffuseTexture = reference
    let image = try renderTexturedQuad(material, textures: ["leaf": texture])
    #expect(image[4, 8] == [0, 0, 255, 255])  // cut out: background shows
    #expect(image[12, 8] == [255, 255, 255, 255])  // kept, fully opaque
  }

  @Test(
    "an opacity map (map_d) cuts out, alone and under a diffuse texture",
    arguments: [false, true])
  func opacityMap(withDiffuseTexture: Bool) throws {
    // Opacity: left half 0, right half 1 (grey values; the red channel is read). Diffuse: a
    // uniform orange texture, so the kept half shows its colour.
    let mask = RGBA8Image(
      width: 4, height: 1,
      pixels: [[0, 0, 0, 255], [0, 0, 0, 255], [255, 255, 255, 255], [255, 255, 255, 255]])
    let orange = RGBA8Image(width: 2, height: 2, pixels: Array(repeating: [255, 128, 0, 255], count: 4))
    var material = Material(name: "stencil")
    material.diffuse = [1, 1, 1]
    var maskReference = TextureReference(path: "mask")
    maskReference.clamp = true
    material.opacityTexture = maskReference
    if withDiffuseTexture { material.diffuseTexture = TextureReference(path: "orange") }
    let image = try renderTexturedQuad(material, textures: ["mask": mask, "orange": orange])
    #expect(image[4, 8] == [0, 0, 255, 255])  // cut out: background shows
    let kept: SIMD4<UInt8> = withDiffuseTexture ? [255, 128, 0, 255] : [255, 255, 255, 255]
    #expect(image[12, 8] == kept)
  }
}
