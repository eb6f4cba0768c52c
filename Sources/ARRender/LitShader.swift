import ARMath
import RealModule

/// Blinn–Phong in linear light with material colour, vertex colour and texture.
///
/// Everything it reads per pixel is reached through plain buffer pointers (valid for the frame,
/// see ``make(draws:lighting:cameraPosition:fastPaths:defersShading:_:)``): arrays copied or
/// iterated per pixel were retained and released atomically on every fragment, from both
/// threads.
struct LitShader: FragmentShader, @unchecked Sendable {
  /// All draws' materials, one after another; draw `d` starts at `materialStart[d]`.
  let materials: UnsafeBufferPointer<ShadingMaterial>
  let materialStart: UnsafeBufferPointer<Int>
  /// Directional lights as (towards the light, unit; radiance).
  let directional: UnsafeBufferPointer<(SIMD3<Float>, SIMD3<Float>)>
  /// Point lights as (position, radiance).
  let point: UnsafeBufferPointer<(SIMD3<Float>, SIMD3<Float>)>
  let ambient: SIMD3<Float>
  let cameraPosition: SIMD3<Float>
  /// Whether opaque triangles take the short ways (see ``RenderSettings``): the rasterizer's,
  /// and one pass for the common textured surface.
  let fastPaths: Bool
  /// Whether opaque triangles are shaded after hidden surfaces are removed (see
  /// ``RenderSettings/removesHiddenSurfaces``). Only triangles ``isOpaque(_:)`` are deferred,
  /// so it has no effect without ``fastPaths``.
  let defersShading: Bool

  /// Calls `body` with a shader whose buffers live for the duration of the call.
  static func make<R>(
    draws: [DrawCall], lighting: Lighting, cameraPosition: SIMD3<Float>, fastPaths: Bool = true,
    defersShading: Bool = true, _ body: (LitShader) -> R
  ) -> R {
    let materials = draws.flatMap(\.materials)
    var starts: [Int] = []
    var start = 0
    for d in draws {
      starts.append(start)
      start += d.materials.count
    }
    let directional = lighting.directional.compactMap { light in
      (-light.direction).normalizedOrNil().map { ($0, light.color) }
    }
    let point = lighting.point.map { ($0.position, $0.color) }
    return materials.withUnsafeBufferPointer { m in
      starts.withUnsafeBufferPointer { st in
        directional.withUnsafeBufferPointer { dl in
          point.withUnsafeBufferPointer { pl in
            body(
              LitShader(
                materials: m, materialStart: st, directional: dl, point: pl, ambient: lighting.ambient,
                cameraPosition: cameraPosition, fastPaths: fastPaths,
                defersShading: defersShading))
          }
        }
      }
    }
  }

  /// What the lit shader keeps per triangle.
  struct Triangle {
    /// The triangle's material, in the shader's buffer (read, not copied, per triangle).
    let materialPointer: UnsafePointer<ShadingMaterial>
    @inline(__always) var material: ShadingMaterial { materialPointer.pointee }
    let flatNormal: SIMD3<Float>
    let v0: VertexAttributes, v1: VertexAttributes, v2: VertexAttributes
    /// The vertices' texture coordinates, u and v by vertex; and of the second set, where a
    /// map samples it (zero otherwise).
    let u: SIMD3<Float>, v: SIMD3<Float>
    let secondU: SIMD3<Float>, secondV: SIMD3<Float>
    /// The material's colour and opacity times the vertex colour, when the three vertices share
    /// one (nearly always: white when the mesh has none); nil when it varies.
    let uniformBase: SIMD4<Float>?
    let backFacing: Bool
    /// The texture coordinates and level of the texture sampled (the diffuse one, or the
    /// opacity one alone), when there is one.
    let coordinates: TextureCoordinatePlanes?
    /// Whether every sample is opaque, and the rasterizer's short ways are taken (see
    /// ``LitShader/fastPaths``).
    let opaque: Bool
    /// Whether there are lights besides the ambient one.
    let lit: Bool
    /// ∂p/∂u and ∂p/∂v (see ``VertexAttributes/textureFrame(_:)``), when a normal map bends
    /// the lit triangle's normals; zero otherwise.
    let tangent: SIMD3<Float>, bitangent: SIMD3<Float>
  }

  /// What a material's maps say at one sample: the metallic-roughness surface, the fraction of
  /// the ambient light that reaches it, its emission, and the tangent-space normal.
  struct SurfaceSample {
    var pbr: (metallic: Float, alpha: Float)?
    var occlusion: Float = 1
    var emission: SIMD3<Float>
    var normal: SIMD3<Float>? = nil
  }

  var readsVertices: Bool { true }

  func begin(_ t: SetupTriangle, _ frame: FrameVertices, _ planes: PerspectivePlanes) -> Triangle {
    let vertices = frame.of(t)
    let (v0, v1, v2) = vertices
    let materialPointer = material(of: t)
    let material = materialPointer.pointee
    let sharedColor = v0.color == v1.color && v1.color == v2.color
    let u = SIMD3(v0.worldAndU.w, v1.worldAndU.w, v2.worldAndU.w),
      v = SIMD3(v0.normalAndV.w, v1.normalAndV.w, v2.normalAndV.w)
    let sampled = material.texture ?? material.opacityTexture
    let lit = !directional.isEmpty || !point.isEmpty
    let frame =
      lit && material.normalTexture != nil ? VertexAttributes.textureFrame(vertices) : (.zero, .zero)
    return Triangle(
      materialPointer: materialPointer,
      // Only lights use it (for samples whose interpolated normal vanishes).
      flatNormal: lit ? VertexAttributes.faceNormal(vertices, swapped: t.swapped) : .zero, v0: v0, v1: v1,
      v2: v2, u: u, v: v,
      secondU: material.secondSet.any ? SIMD3(v0.uv1.x, v1.uv1.x, v2.uv1.x) : .zero,
      secondV: material.secondSet.any ? SIMD3(v0.uv1.y, v1.uv1.y, v2.uv1.y) : .zero,
      uniformBase: sharedColor
        ? SIMD4(material.diffuse * SIMD3(v0.color.x, v0.color.y, v0.color.z), material.opacity) : nil,
      backFacing: t.backFacing,
      coordinates: sampled.map {
        TextureCoordinatePlanes(us: u, vs: v, texture: $0, planes: planes)
      },
      opaque: fastPaths && material.alphaMode == .opaque,
      lit: lit, tangent: frame.0, bitangent: frame.1)
  }

  @inline(__always)
  func flatColor(_ t: Triangle) -> SIMD4<Float>? { nil }

  @inline(__always)
  func isOpaque(_ t: SetupTriangle) -> Bool {
    fastPaths && material(of: t).pointee.alphaMode == .opaque
  }

  /// Triangle `t`'s material in the shader's buffer.
  @inline(__always)
  private func material(of t: SetupTriangle) -> UnsafePointer<ShadingMaterial> {
    materials.baseAddress! + materialStart[Int(t.draw)] + Int(t.material)
  }

  @inline(__always)
  func shade(_ t: Triangle, _ batch: FragmentBatch, count: Int) {
    let material = t.material
    let color = batch.color
    // The common textured surface (opaque, one base colour, ambient light): the colours come
    // out of the sampler, tinted with the same arithmetic as the passes below.
    // (Ambient light alone reflects the same from either BRDF; unlit materials take none.)
    if t.opaque, !t.lit, !material.unlit, !material.hasAmbientMaps, let base = t.uniformBase,
      let texture = material.texture, let coordinates = t.coordinates
    {
      // Alpha becomes 0·a + 1 = 1 (the colours are finite).
      let tint = TexelTint(base: base, light: SIMD4(ambient, 0), offset: SIMD4(material.emissive, 1))
      batch.sample(texture, coordinates, count: count, tint: tint, into: color)
      return
    }
    // The vertex weights, for what interpolates more than texture coordinates.
    let lit = t.lit
    if t.uniformBase == nil || lit || material.hasAmbientMaps
      || (material.texture != nil && material.opacityTexture != nil)
    {
      batch.fillWeights(count: count)
    }
    // Base colour and opacity: the material's times the vertex colour.
    if let uniform = t.uniformBase {
      for k in 0..<count { color[k] = uniform }
    } else {
      let diffuse = SIMD4(material.diffuse, material.opacity)
      for k in 0..<count {
        let c = t.v0.color * batch.w0[k] + t.v1.color * batch.w1[k] + t.v2.color * batch.w2[k]
        color[k] = diffuse * SIMD4(c.x, c.y, c.z, 1)
      }
    }
    // Textures: the diffuse one (or the opacity one alone) sampled for the whole batch, sized
    // for its own footprint.
    if let texture = material.texture ?? material.opacityTexture, let coordinates = t.coordinates {
      batch.sample(texture, coordinates, count: count)
      if material.texture != nil {
        for k in 0..<count { color[k] *= batch.texel[k] }
        if let opacity = material.opacityTexture {
          // Its own footprint: the batch's levels are sized for the diffuse texture.
          for k in 0..<count {
            let w = batch.weights(k)
            let (dx, dy) = (w.dx, w.dy)
            let uvX = SIMD2((t.u * dx).sum(), (t.v * dx).sum()),
              uvY = SIMD2((t.u * dy).sum(), (t.v * dy).sum())
            color[k].w *= opacity.sample(SIMD2(batch.u[k], batch.v[k]), uvX, uvY).x
          }
        }
      } else {
        for k in 0..<count { color[k].w *= batch.texel[k].x }
      }
    }
    switch material.alphaMode {
    case .opaque:
      for k in 0..<count { color[k].w = 1 }
    case .mask:
      // Cut out below the cutoff (one half unless the material says), opaque above.
      let cutoff = material.maskCutoff
      for k in 0..<count {
        color[k] =
          color[k].w < cutoff ? FragmentBatch.discarded : SIMD4(color[k].x, color[k].y, color[k].z, 1)
      }
    case .blend:
      for k in 0..<count where color[k].w < 1.0 / 255 { color[k] = FragmentBatch.discarded }
    }
    light(t, batch, count: count, lit: lit)
  }

  /// Replaces each kept sample's albedo in `batch.color` by the light it reflects towards the
  /// camera (alpha kept); `lit` when there are lights besides the ambient one.
  @inline(__always)
  func light(_ t: Triangle, _ batch: FragmentBatch, count: Int, lit: Bool) {
    let material = t.material
    let color = batch.color
    // Unlit materials show their base colour as it is.
    if material.unlit { return }
    // Ambient light needs no normal and no view direction: computed alone when it is all.
    let ambient = SIMD4(self.ambient, 1), emissive = SIMD4(material.emissive, 0)
    guard lit || material.hasAmbientMaps else {
      // Discarded samples stay so: their alpha is kept, negative.
      for k in 0..<count { color[k] = ambient * color[k] + emissive }
      return
    }
    for k in 0..<count where color[k].w >= 0 {
      let base = color[k]
      let rgb = reflected(
        t, albedo: SIMD3(base.x, base.y, base.z), surface: surface(t, material, batch, k), a: batch.w0[k],
        b: batch.w1[k], c: batch.w2[k])
      color[k] = SIMD4(rgb, base.w)
    }
  }

  /// The maps of `material` (triangle `t`'s) at sample `k` (its weights filled), each sampled
  /// with the sample's own footprint.
  @inline(__always)
  func surface(_ t: Triangle, _ material: ShadingMaterial, _ batch: FragmentBatch, _ k: Int) -> SurfaceSample
  {
    var surface = SurfaceSample(pbr: material.metallicRoughness, emission: material.emissive)
    guard material.hasAmbientMaps || material.hasMetallicRoughnessMaps || material.normalTexture != nil
    else { return surface }
    let w = batch.weights(k)
    let first = (
      SIMD2((t.u * w.here).sum(), (t.v * w.here).sum()), SIMD2((t.u * w.dx).sum(), (t.v * w.dx).sum()),
      SIMD2((t.u * w.dy).sum(), (t.v * w.dy).sum())
    )
    let second =
      material.secondSet.any
      ? (
        SIMD2((t.secondU * w.here).sum(), (t.secondV * w.here).sum()),
        SIMD2((t.secondU * w.dx).sum(), (t.secondV * w.dx).sum()),
        SIMD2((t.secondU * w.dy).sum(), (t.secondV * w.dy).sum())
      ) : first
    /// A map's texel at the sample, in the set it samples, with that set's footprint.
    @inline(__always) func sample(_ texture: TextureView, secondSet: Bool) -> SIMD4<Float> {
      let (uv, uvX, uvY) = secondSet ? second : first
      return texture.sample(uv, uvX, uvY)
    }
    if let texture = material.emissiveTexture {
      let texel = sample(texture, secondSet: material.secondSet.emissive)
      surface.emission *= SIMD3(texel.x, texel.y, texel.z)
    }
    if let texture = material.occlusionTexture {
      surface.occlusion =
        1 + material.occlusionStrength * (sample(texture, secondSet: material.secondSet.occlusion).x - 1)
    }
    guard material.metallicRoughness != nil, t.lit else { return surface }
    if material.hasMetallicRoughnessMaps {
      // Roughness in green and metallic in blue, multiplying the factors; a map of its own
      // (USD's) in place of either, read from its channel.
      let texel = material.metallicRoughnessTexture.map {
        sample($0, secondSet: material.secondSet.metallicRoughness)
      }
      let metallic =
        material.metallicTexture.map { sample($0.view, secondSet: false)[$0.channel] } ?? texel?.z ?? 1
      let roughness =
        material.roughnessTexture.map { sample($0.view, secondSet: false)[$0.channel] } ?? texel?.y ?? 1
      surface.pbr = (
        material.metallicFactor * metallic,
        ShadingMaterial.alpha(roughness: material.roughnessFactor * roughness)
      )
    }
    if let texture = material.normalTexture, t.tangent != .zero {
      let texel = sample(texture, secondSet: material.secondSet.normal)
      let scale = SIMD3(material.normalScale, material.normalScale, 1)
      surface.normal = (SIMD3(texel.x, texel.y, texel.z) * 2 - 1) * scale
    }
    return surface
  }

  /// The light a sample with `albedo` reflects towards the camera (ambient, directional and
  /// point lights; Blinn–Phong, or glTF's metallic-roughness BRDF with `surface`'s metallic and
  /// α), its vertex weights being `a`, `b`, `c`.
  @inline(__always)
  func reflected(
    _ t: Triangle, albedo: SIMD3<Float>, surface: SurfaceSample, a: Float, b: Float, c: Float
  ) -> SIMD3<Float> {
    let material = t.material
    let pbr = surface.pbr
    let shiny = material.specular != .zero || pbr != nil
    var rgb = self.ambient * albedo * surface.occlusion + surface.emission
    let worldAndU = t.v0.worldAndU * a + t.v1.worldAndU * b + t.v2.worldAndU * c
    let normalAndV = t.v0.normalAndV * a + t.v1.normalAndV * b + t.v2.normalAndV * c
    let position = SIMD3(worldAndU.x, worldAndU.y, worldAndU.z)
    var n = SIMD3(normalAndV.x, normalAndV.y, normalAndV.z).normalizedOrNil() ?? t.flatNormal
    if let m = surface.normal {
      n = VertexAttributes.bent(n, by: m, tangent: t.tangent, bitangent: t.bitangent)
    }
    if t.backFacing { n = -n }  // two-sided lighting for faces drawn from behind
    let view = shiny ? (cameraPosition - position).normalizedOrNil() ?? n : n
    func add(_ towardsLight: SIMD3<Float>, _ radiance: SIMD3<Float>) {
      let nl = n.dot(towardsLight)
      guard nl > 0 else { return }
      if let pbr {
        rgb +=
          Self.metallicRoughness(
            normal: n, view: view, light: towardsLight, base: albedo, metallic: pbr.metallic, alpha: pbr.alpha
          )
          * radiance
        return
      }
      var reflected = albedo * nl
      if shiny {
        let h = (towardsLight + view).normalizedOrNil() ?? n
        reflected += material.specular * Float.pow(Swift.max(0, n.dot(h)), material.shininess)
      }
      rgb += reflected * radiance
    }
    for (towardsLight, radiance) in directional { add(towardsLight, radiance) }
    for (lightPosition, radiance) in point {
      let d = lightPosition - position
      let d2 = d.lengthSquared
      if d2 > 0 { add(d / d2.squareRoot(), radiance / d2) }
    }
    return rgb
  }

  /// The light a metallic-roughness surface reflects along `view` per unit of light along
  /// `light` (unit vectors, towards the eye and the light): π·f·(n·l), f being the BRDF of the
  /// glTF 2.0 specification's Appendix B: Schlick's Fresnel with f0 = mix(0.04, base, metallic),
  /// the GGX distribution and the height-correlated Smith visibility for α, and a Lambertian
  /// diffuse of mix(base, black, metallic) weighted by 1 − F. The π makes a rough white
  /// dielectric reflect what Blinn-Phong's Lambert term does (`base`·(n·l)), in the renderer's
  /// units of light.
  @inline(__always)
  static func metallicRoughness(
    normal n: SIMD3<Float>, view v: SIMD3<Float>, light l: SIMD3<Float>, base: SIMD3<Float>, metallic: Float,
    alpha: Float
  ) -> SIMD3<Float> {
    let nl = Swift.max(n.dot(l), 0)
    guard nl > 0 else { return .zero }
    let nv = Swift.max(abs(n.dot(v)), 1e-4)
    let h = (l + v).normalizedOrNil() ?? n
    let nh = Swift.max(n.dot(h), 0), vh = Swift.max(v.dot(h), 0)
    let f0 = SIMD3<Float>(repeating: 0.04) * (1 - metallic) + base * metallic
    let schlick = Float.pow(1 - vh, 5)
    let fresnel = f0 + (SIMD3<Float>(repeating: 1) - f0) * schlick
    let a2 = alpha * alpha
    let d = nh * nh * (a2 - 1) + 1
    let distribution = a2 / (Float.pi * d * d)
    let visibility =
      0.5 / (nl * (nv * nv * (1 - a2) + a2).squareRoot() + nv * (nl * nl * (1 - a2) + a2).squareRoot())
    let diffuse = (SIMD3<Float>(repeating: 1) - fresnel) * base * (1 - metallic) / Float.pi
    let specular = fresnel * (distribution * visibility)
    return Float.pi * (diffuse + specular) * nl
  }
}
