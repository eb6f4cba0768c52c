import ARFiles
import ARMath

/// A glTF material as ARScene's `Material`: the base colour (factor and texture) as the diffuse
/// colour, `BLEND`'s alpha as the opacity, the alpha mode and cutoff, emissive (times
/// `KHR_materials_emissive_strength`), the metallic and roughness factors (the renderer's BRDF;
/// also as a Blinn-Phong shininess, α = roughness², shininess = 2/α² − 2, for OBJ export), no
/// lighting at all for `KHR_materials_unlit`, and the images its textures name: files beside
/// the asset, or bytes inside it (kept by a path `ASSET#/images/N` the materials refer to).
struct GLTFMaterialConversion {
  var material: Material
  var textureTransform: GLTFDocument.TextureTransform?
  /// The `KHR_texture_transform` of the maps on the second texture-coordinate set.
  var secondTextureTransform: GLTFDocument.TextureTransform?
  var embeddedImages: [String: [UInt8]] = [:]
  var warnings: [String] = []

  /// glTF's default material: white, fully rough.
  static var defaultMaterial: GLTFMaterialConversion {
    var m = Material(name: "glTF default")
    m.diffuse = SIMD3(1, 1, 1)
    m.specular = .zero
    return GLTFMaterialConversion(material: m)
  }

  private init(material: Material) { self.material = material }

  init(_ m: GLTFDocument.MaterialJSON, index: Int, container: GLTFContainer) throws(GLTFError) {
    let here = "/materials/\(index)"
    func fail(_ field: String, _ reason: String) -> GLTFError {
      GLTFError(path: container.path, pointer: here + field, reason: reason)
    }
    self.material = Material(name: m.name ?? "material \(index)")
    var material = self.material
    let pbr = m.pbrMetallicRoughness
    let factor = pbr?.baseColorFactor ?? [1, 1, 1, 1]
    guard factor.count == 4, factor.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
      throw fail("/pbrMetallicRoughness/baseColorFactor", "expected 4 numbers from 0 to 1")
    }
    material.diffuse = SIMD3(Float(factor[0]), Float(factor[1]), Float(factor[2]))
    // Alpha counts in BLEND and MASK (against the cutoff); OPAQUE ignores it.
    material.opacity = m.alphaMode == "BLEND" || m.alphaMode == "MASK" ? Float(factor[3]) : 1
    guard [nil, "OPAQUE", "MASK", "BLEND"].contains(m.alphaMode) else {
      throw fail("/alphaMode", "'\((m.alphaMode ?? "").prefix(60))' is not OPAQUE, MASK or BLEND")
    }
    let roughness = pbr?.roughnessFactor ?? 1, metallic = pbr?.metallicFactor ?? 1
    guard roughness.isFinite, (0...1).contains(roughness), metallic.isFinite, (0...1).contains(metallic)
    else {
      throw fail("/pbrMetallicRoughness", "metallicFactor and roughnessFactor must be from 0 to 1")
    }
    let alpha = Swift.max(roughness * roughness, 0.01)
    material.shininess = Float(Swift.min(1000, Swift.max(1, 2 / (alpha * alpha) - 2)))
    material.specular = SIMD3(repeating: Float(0.04 * (1 - roughness)))
    if m.extensions?.unlit == nil {
      material.metallicRoughness = Material.MetallicRoughness(
        metallic: Float(metallic), roughness: Float(roughness))
    } else {
      material.isUnlit = true
      material.specular = .zero
    }
    let cutoff = m.alphaCutoff ?? 0.5
    guard cutoff.isFinite, cutoff >= 0 else {
      throw fail("/alphaCutoff", "\(cutoff) is not a number of at least 0")
    }
    material.isDoubleSided = m.doubleSided ?? false
    switch m.alphaMode {
    case "MASK"?: material.alphaMode = .mask(cutoff: Float(cutoff))
    case "BLEND"?: material.alphaMode = .blend
    default: material.alphaMode = .opaque
    }
    let emissive = m.emissiveFactor ?? [0, 0, 0]
    let strength = m.extensions?.emissiveStrength?.emissiveStrength ?? 1
    guard emissive.count == 3, emissive.allSatisfy({ $0.isFinite && $0 >= 0 }), strength.isFinite,
      strength >= 0
    else { throw fail("/emissiveFactor", "expected 3 finite numbers of at least 0") }
    material.emissive = SIMD3(emissive.map { Float($0 * strength) })
    if let info = pbr?.baseColorTexture {
      material.diffuseTexture = try texture(
        info.index, container, at: here + "/pbrMetallicRoughness/baseColorTexture")
      textureTransform = info.extensions?.transform
    }
    if let info = pbr?.metallicRoughnessTexture, m.extensions?.unlit == nil {
      material.metallicRoughnessTexture = try texture(
        info.index, container, at: here + "/pbrMetallicRoughness/metallicRoughnessTexture")
    }
    if let info = m.emissiveTexture {
      material.emissiveTexture = try texture(info.index, container, at: here + "/emissiveTexture")
    }
    if m.extensions?.unlit == nil {
      try readSurfaceMaps(m, into: &material, container: container, at: here)
    }
    self.material = material
    assignTexCoordSets(m, container: container, at: here)
  }

  /// The normal map (with its scale) and the occlusion map (with its strength): lit materials
  /// only, as unlit ones take no light to bend or occlude.
  private mutating func readSurfaceMaps(
    _ m: GLTFDocument.MaterialJSON, into material: inout Material, container: GLTFContainer, at here: String
  ) throws(GLTFError) {
    if let info = m.normalTexture {
      let scale = info.scale ?? 1
      guard scale.isFinite, abs(scale) <= 1e6 else {
        throw GLTFError(
          path: container.path, pointer: here + "/normalTexture/scale",
          reason: "\(scale) is not a finite number within ±1e6")
      }
      material.normalTexture = try texture(info.index, container, at: here + "/normalTexture")
      material.normalScale = Float(scale)
    }
    if let info = m.occlusionTexture {
      let strength = info.strength ?? 1
      guard strength.isFinite, (0...1).contains(strength) else {
        throw GLTFError(
          path: container.path, pointer: here + "/occlusionTexture/strength",
          reason: "\(strength) is not a number from 0 to 1")
      }
      material.occlusionTexture = try texture(info.index, container, at: here + "/occlusionTexture")
      material.occlusionStrength = Float(strength)
    }
  }

  /// The texture-coordinate sets material `m` samples: the base colour's (0 without one), and a
  /// second one its other maps use, if any (a mesh keeps two: `Mesh.texcoords` and
  /// `Mesh.texcoords1`).
  static func texCoordSets(_ m: GLTFDocument.MaterialJSON?) -> (Int, Int?) {
    guard let m else { return (0, nil) }
    let primary = set(m.pbrMetallicRoughness?.baseColorTexture) ?? 0
    let second = maps(m).compactMap { set($0.1) }.first { $0 != primary }
    return (primary, second)
  }

  /// The set texture `info` samples: `KHR_texture_transform`'s `texCoord` over its own.
  private static func set(_ info: GLTFDocument.TextureInfo?) -> Int? {
    info.map { $0.extensions?.transform?.texCoord ?? $0.texCoord ?? 0 }
  }

  /// The maps besides the base colour, by their JSON pointers under the material.
  private static func maps(_ m: GLTFDocument.MaterialJSON) -> [(String, GLTFDocument.TextureInfo?)] {
    [
      ("/pbrMetallicRoughness/metallicRoughnessTexture", m.pbrMetallicRoughness?.metallicRoughnessTexture),
      ("/normalTexture", m.normalTexture), ("/occlusionTexture", m.occlusionTexture),
      ("/emissiveTexture", m.emissiveTexture),
    ]
  }

  /// Marks each map sampled by the second set (``texCoordSets(_:)``) to use the mesh's second
  /// coordinates; a map on a third set is drawn with the first, with a warning.
  private mutating func assignTexCoordSets(
    _ m: GLTFDocument.MaterialJSON, container: GLTFContainer, at here: String
  ) {
    let (primary, second) = Self.texCoordSets(m)
    let references: [WritableKeyPath<Material, TextureReference?>] = [
      \.metallicRoughnessTexture, \.normalTexture, \.occlusionTexture, \.emissiveTexture,
    ]
    var transformed = false
    for ((pointer, info), reference) in zip(Self.maps(m), references) {
      guard let used = Self.set(info), used != primary else { continue }
      if used == second {
        material[keyPath: reference]?.texCoord = 1
        // The set's coordinates are transformed once: by its first map's transform.
        let transform = info?.extensions?.transform
        if !transformed {
          (secondTextureTransform, transformed) = (transform, true)
        } else if transform != secondTextureTransform {
          warnings.append(
            "\(container.path): \(here)\(pointer)/extensions/KHR_texture_transform: the maps on set \(used) are drawn with the first one's transform"
          )
        }
      } else {
        warnings.append(
          "\(container.path): \(here)\(pointer)/texCoord: set \(used) is drawn with set \(primary): a mesh keeps two sets, here \(primary) and \(second ?? primary)"
        )
      }
    }
  }

  /// The texture reference of texture `index`'s image: its file, or a path naming it inside the
  /// asset (its bytes kept in ``embeddedImages``).
  private mutating func texture(_ index: Int, _ container: GLTFContainer, at pointer: String)
    throws(GLTFError)
    -> TextureReference?
  {
    let document = container.document
    guard let texture = document.textures?[safe: index] else {
      throw GLTFError(
        path: container.path, pointer: pointer + "/index", reason: "texture \(index) does not exist")
    }
    // The core image where there is one (PNG or JPEG, decoded exactly: the extensions' images
    // are its compressed copies), else KHR_texture_basisu's KTX2 file or EXT_texture_webp's WebP.
    let extensions = texture.extensions
    guard let source = texture.source ?? extensions?.basisu?.source ?? extensions?.webp?.source else {
      // An image only in an extension ARScene does not know: the geometry reads, the texture
      // is not drawn, and the user is told.
      warnings.append(
        "\(container.path): /textures/\(index): no image ARScene decodes (no source, KHR_texture_basisu or EXT_texture_webp: an AVIF or DDS image, say); drawn without it"
      )
      return nil
    }
    guard let image = document.images?[safe: source] else {
      throw GLTFError(
        path: container.path, pointer: "/textures/\(index)/source", reason: "image \(source) does not exist")
    }
    // The sampler's wrap: clamped to the edge in both directions, or each direction repeated
    // (glTF's default) or mirrored; clamping one direction alone is drawn as repeating it,
    // with a warning.
    var clamp = false, mirrored = (u: false, v: false)
    if let s = texture.sampler {
      guard let sampler = document.samplers?[safe: s] else {
        throw GLTFError(
          path: container.path, pointer: "/textures/\(index)/sampler", reason: "sampler \(s) does not exist")
      }
      let (wrapS, wrapT) = (sampler.wrapS ?? 10497, sampler.wrapT ?? 10497)
      for (mode, name) in [(wrapS, "wrapS"), (wrapT, "wrapT")] where ![10497, 33071, 33648].contains(mode) {
        warnings.append(
          "\(container.path): /samplers/\(s)/\(name): \(mode) is not 10497 (repeat), 33071 (clamp to edge) or 33648 (mirrored repeat); drawn as repeat"
        )
      }
      clamp = wrapS == 33071 && wrapT == 33071
      mirrored = (wrapS == 33648, wrapT == 33648)
      if !clamp && (wrapS == 33071 || wrapT == 33071) {
        warnings.append(
          "\(container.path): /samplers/\(s): clamping one direction alone (\(wrapS), \(wrapT)) is drawn as repeating it; ARScene clamps both directions or neither"
        )
      }
    }
    let imagePointer = "/images/\(source)"
    let fromBasisu = texture.source == nil && extensions?.basisu?.source != nil
    /// Whether the KTX2 image can be drawn: ETC1S and UASTC are decoded, other formats are left
    /// out with a warning.
    func drawable(_ bytes: [UInt8]) -> Bool {
      guard fromBasisu, let codec = Self.ktx2Codec(bytes), !["ETC1S", "UASTC"].contains(codec) else {
        return true
      }
      warnings.append(
        "\(container.path): /textures/\(index): its KTX2 image is \(codec), which ARScene does not decode (only ETC1S and UASTC); drawn without it"
      )
      return false
    }
    if let uri = image.uri, !uri.hasPrefix("data:") {
      let file = try GLTFURI.path(uri, relativeTo: container.path, pointer: imagePointer + "/uri")
      if fromBasisu, let bytes = try? FileIO.read(file), !drawable(bytes) { return nil }
      var reference = TextureReference(path: file)
      (reference.clamp, reference.mirrored) = (clamp, clamp ? (false, false) : mirrored)
      return reference
    }
    let key = container.path + "#" + imagePointer
    if let uri = image.uri {
      embeddedImages[key] = try GLTFURI.bytes(
        uri, relativeTo: container.path, pointer: imagePointer + "/uri", assetPath: container.path)
    } else if let view = image.bufferView {
      embeddedImages[key] = try container.viewBytes(view, at: imagePointer + "/bufferView")
    } else {
      throw GLTFError(path: container.path, pointer: imagePointer, reason: "neither a uri nor a bufferView")
    }
    if let bytes = embeddedImages[key], !drawable(bytes) {
      embeddedImages[key] = nil
      return nil
    }
    var reference = TextureReference(path: key)
    (reference.clamp, reference.mirrored) = (clamp, clamp ? (false, false) : mirrored)
    return reference
  }

  /// A KTX2 file's coding as a name (`ETC1S`, `UASTC`, or its Vulkan format), read from its
  /// header and data format descriptor; nil for bytes that are not KTX2.
  static func ktx2Codec(_ bytes: [UInt8]) -> String? {
    guard EncodedImageKind(bytes) == .ktx2, bytes.count >= 80 else { return nil }
    func u32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
    let (format, scheme, dfd) = (u32(12), u32(44), u32(48))
    let model = dfd + 16 <= bytes.count ? u32(dfd + 12) & 0xFF : -1
    switch (model, scheme) {
    case (163, 1): return "ETC1S"
    case (166, _): return "UASTC"
    default: return "of Vulkan format \(format)"
    }
  }
}
