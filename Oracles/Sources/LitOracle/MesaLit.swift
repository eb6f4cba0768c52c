import ARImage
import ARMath
import ARMesh
@_spi(Oracles) import ARRender
import Foundation
import MesaOracle

/// Draw calls as ARScene's lit mode renders them (Blinn–Phong, textures, alpha, sRGB output),
/// drawn by llvmpipe with shaders that follow ARRender's `LitShader` step for step and the very
/// texels ARScene samples (its mip chains, handed over through the `Oracles` SPI). The
/// independent renderer that scenes (Tools/crosscheck-llvmpipe) and snapshots (OracleTests) are
/// compared with.
public final class MesaLit {
  let oracle: OpaquePointer
  /// The output's size, pixels.
  public let width: Int, height: Int

  /// An off-screen llvmpipe frame of `width` × `height`; nil when EGL, GLES 3 or filtering of
  /// float textures is missing.
  public init?(width: Int, height: Int) {
    setenv("LP_NUM_THREADS", "2", 0)
    guard let oracle = mesa_lit_oracle_create(Int32(width), Int32(height)) else { return nil }
    self.oracle = oracle
    (self.width, self.height) = (width, height)
  }

  deinit { mesa_lit_oracle_destroy(oracle) }

  /// Why a scene cannot be drawn here, as a sentence.
  public struct Unsupported: Error, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// `description`.
    public init(description: String) { self.description = description }
  }

  /// Renders `draws` seen by `camera` under `lighting`, over `background` (linear RGBA at the
  /// output size) or `backgroundColor` (linear RGBA), without anti-aliasing.
  public func render(
    _ draws: [DrawCall], camera: RenderCamera, lighting: Lighting, background: LinearImage?,
    backgroundColor: SIMD4<Float>
  ) throws(Unsupported) -> RGBA8Image {
    var lights = mesa_lit_lights()
    let directional = lighting.directional.compactMap { l in
      (-l.direction).normalizedOrNil().map { ($0, l.color) }
    }
    guard directional.count <= Int(MESA_LIT_MAX_LIGHTS), lighting.point.count <= Int(MESA_LIT_MAX_LIGHTS)
    else { throw Unsupported(description: "more than \(MESA_LIT_MAX_LIGHTS) lights of a kind") }
    lights.ambient = Self.triple(lighting.ambient)
    lights.directional_count = Int32(directional.count)
    lights.point_count = Int32(lighting.point.count)
    withUnsafeMutableBytes(of: &lights.directional_towards) { towards in
      withUnsafeMutableBytes(of: &lights.directional_color) { colors in
        for (i, (t, c)) in directional.enumerated() { Self.store(t, i, towards); Self.store(c, i, colors) }
      }
    }
    withUnsafeMutableBytes(of: &lights.point_position) { positions in
      withUnsafeMutableBytes(of: &lights.point_color) { colors in
        for (i, p) in lighting.point.enumerated() {
          Self.store(p.position, i, positions)
          Self.store(p.color, i, colors)
        }
      }
    }
    lights.camera_position = Self.triple(SIMD3<Float>(camera.worldFromCamera.translation))

    let clear = [backgroundColor.x, backgroundColor.y, backgroundColor.z, backgroundColor.w]
    let backdrop = background.map { $0.pixels.flatMap { [$0.x, $0.y, $0.z, $0.w] } }
    if let background = backdrop {
      mesa_lit_oracle_begin(oracle, clear, background, &lights)
    } else {
      mesa_lit_oracle_begin(oracle, clear, nil, &lights)
    }
    let clipFromWorld = camera.clipFromWorld

    // Opaque and cut-out runs in draw order; blended triangles after them, farthest first by
    // their mean distance from the camera plane (as ARScene sorts them), ties in draw order.
    var blended: [(distance: Float, order: Int, material: mesa_lit_material, triangle: Triangles)] = []
    let cameraFromWorld = RigidTransform<Float>(camera.worldFromCamera.inverse)
    for draw in draws {
      let materials = try materials(of: draw)
      for submesh in draw.mesh.submeshes {
        let material = materials[submesh.material]
        if material.alpha_use == Int32(MESA_LIT_BLENDED) {
          for t in submesh.triangles {
            let triangle = Triangles(draw, t..<t + 1, clipFromWorld: clipFromWorld)
            let depth = (0..<3).map { -cameraFromWorld.transformPoint(triangle.world($0)).z }
            blended.append((depth.reduce(0, +) / 3, blended.count, material, triangle))
          }
        } else {
          Triangles(draw, submesh.triangles, clipFromWorld: clipFromWorld).draw(material, into: oracle)
        }
      }
    }
    blended.sort { p, q in p.distance != q.distance ? p.distance > q.distance : p.order < q.order }
    for b in blended { b.triangle.draw(b.material, into: oracle) }

    var pixels = [SIMD4<UInt8>](repeating: .zero, count: width * height)
    pixels.withUnsafeMutableBytes {
      mesa_lit_oracle_read(oracle, $0.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }
    return RGBA8Image(width: width, height: height, pixels: pixels)
  }

  /// Textures uploaded, by file and wrap mode: the houses share theirs.
  private var textures: [String: UInt32] = [:]

  /// `draw`'s materials for the shader, their textures uploaded.
  private func materials(of draw: DrawCall) throws(Unsupported) -> [mesa_lit_material] {
    var out: [mesa_lit_material] = []
    for (i, m) in draw.mesh.materials.enumerated() {
      var g = mesa_lit_material()
      g.diffuse = Self.triple(m.diffuse)
      g.specular = Self.triple(m.specular)
      g.emissive = Self.triple(m.emissive)
      g.shininess = Swift.max(m.shininess, 1)
      g.opacity = m.opacity
      let use = draw.alphaUse(ofMaterial: i)
      g.alpha_use = Int32(
        use == .opaque ? MESA_LIT_OPAQUE : use == .cutOut ? MESA_LIT_CUT_OUT : MESA_LIT_BLENDED)
      // Cut-out and blended surfaces are two-sided, as in ARScene.
      g.cull_back_faces = draw.cullBackFaces && use == .opaque ? 1 : 0
      if let reference = m.diffuseTexture, let levels = draw.diffuseTextureLevels(ofMaterial: i) {
        g.texture = try texture(reference, levels)
        g.texture_scale = (reference.scale.x, reference.scale.y)
        g.texture_offset = (reference.offset.x, reference.offset.y)
      }
      if let reference = m.opacityTexture, let levels = draw.opacityTextureLevels(ofMaterial: i) {
        g.opacity_texture = try texture(reference, levels)
        g.opacity_scale = (reference.scale.x, reference.scale.y)
        g.opacity_offset = (reference.offset.x, reference.offset.y)
      }
      out.append(g)
    }
    return out
  }

  private func texture(_ reference: TextureReference, _ levels: [LinearImage]) throws(Unsupported) -> UInt32 {
    let key = "\(reference.path) \(reference.clamp)"
    if let name = textures[key] { return name }
    // GL's chain halves rounding down; ARScene's rounds up (and clamps) at odd sizes.
    for (i, level) in levels.enumerated()
    where level.width != Swift.max(1, levels[0].width >> i)
      || level.height != Swift.max(1, levels[0].height >> i)
    {
      throw Unsupported(
        description: "\(reference.path): mip levels of a texture whose sides are not powers of two")
    }
    let texels = levels.map { $0.pixels.flatMap { [$0.x, $0.y, $0.z, $0.w] } }
    let widths = levels.map { Int32($0.width) }, heights = levels.map { Int32($0.height) }
    let name = Self.withPointers(texels) { pointers in
      mesa_lit_oracle_texture(
        oracle, Int32(levels.count), widths, heights, pointers, reference.clamp ? 1 : 0)
    }
    guard name != 0 else { throw Unsupported(description: "\(reference.path): llvmpipe refused the texture") }
    textures[key] = name
    return name
  }

  /// Calls `body` with a C array of pointers to each of `arrays`' floats.
  private static func withPointers<R>(
    _ arrays: [[Float]], _ body: (UnsafePointer<UnsafePointer<Float>?>) -> R
  ) -> R {
    func nest(_ k: Int, _ pointers: [UnsafePointer<Float>?]) -> R {
      if k == arrays.count { return pointers.withUnsafeBufferPointer { body($0.baseAddress!) } }
      return arrays[k].withUnsafeBufferPointer { nest(k + 1, pointers + [$0.baseAddress]) }
    }
    return nest(0, [])
  }

  private static func triple(_ v: SIMD3<Float>) -> (Float, Float, Float) { (v.x, v.y, v.z) }

  /// Writes `v` as row `i` of a C array of float triples.
  private static func store(_ v: SIMD3<Float>, _ i: Int, _ rows: UnsafeMutableRawBufferPointer) {
    let floats = rows.bindMemory(to: Float.self)
    (floats[3 * i], floats[3 * i + 1], floats[3 * i + 2]) = (v.x, v.y, v.z)
  }

  /// Triangles of a draw with unshared vertices, as GeometryStage places them: clip positions
  /// by `clipFromWorld · worldFromModel`, world positions by `worldFromModel`, normals by its
  /// inverse transpose (not renormalised), no texture coordinates read as (0, 0), no colours as
  /// white.
  struct Triangles {
    var clip: [Float] = [], positions: [Float] = [], normals: [Float] = [], texcoords: [Float] = []
    var colors: [Float] = []

    init(_ draw: DrawCall, _ range: Range<Int>, clipFromWorld: Matrix4<Float>) {
      let mesh = draw.mesh
      let clipFromModel = clipFromWorld * draw.worldFromModel
      let normalMatrix = draw.worldFromModel.linear.inverse?.transposed ?? .identity
      for t in range {
        let (a, b, c) = mesh.triangle(t)
        for i in [a, b, c] {
          let c = clipFromModel * SIMD4(mesh.positions[i], 1)
          let p = draw.worldFromModel.transformPoint(mesh.positions[i])
          let n = normalMatrix * mesh.normals[i]
          let uv = mesh.texcoords.isEmpty ? SIMD2<Float>(0, 0) : mesh.texcoords[i]
          let color = mesh.colors.isEmpty ? SIMD3<Float>(1, 1, 1) : mesh.colors[i]
          clip += [c.x, c.y, c.z, c.w]
          positions += [p.x, p.y, p.z]
          normals += [n.x, n.y, n.z]
          texcoords += [uv.x, uv.y]
          colors += [color.x, color.y, color.z]
        }
      }
    }

    /// Vertex `k`'s world position.
    func world(_ k: Int) -> SIMD3<Float> {
      SIMD3(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2])
    }

    func draw(_ material: mesa_lit_material, into oracle: OpaquePointer) {
      var material = material
      mesa_lit_oracle_draw(
        oracle, &material, clip, positions, normals, texcoords, colors, positions.count / 9)
    }
  }
}
