import ARMath

/// The work of `Mesh(obj:materials:)`, step by step.
struct MeshBuilder {
  let obj: OBJModel
  let library: [String: Material]

  init(obj: OBJModel, library: [Material]) {
    self.obj = obj
    var byName: [String: Material] = [:]
    for m in library where byName[m.name] == nil { byName[m.name] = m }
    self.library = byName
  }

  // A corner's normal key is its `vn` index when the file gives one, else `−1 − accumulator`
  // for a computed normal: corners share a vertex when position, texcoord and key agree.

  func build() -> Mesh {
    let (triangleCorners, faceNormals) = triangulate()
    let (cornerNormalKey, accumulators) = normalKeys(faceNormals: faceNormals)
    var mesh = unifiedVertices(triangleCorners, normalKeys: cornerNormalKey, accumulators: accumulators)
    (mesh.submeshes, mesh.materials) = submeshes()
    return mesh
  }

  /// Every face triangulated (concave ones by ear clipping), as corners (indices into
  /// `obj.corners`, 3 a triangle), and each face's area-weighted normal (Newell's): bands of
  /// faces on every core, triangles and quads without the polygon path's arrays.
  func triangulate() -> (corners: [Int], faceNormals: [SIMD3<Float>]) {
    let faces = obj.faceCount
    guard faces > 0 else { return ([], []) }
    let bands = Swift.max(1, Swift.min(64, faces / 32_768))
    let perBand = LockedResults<[Int]>(count: bands)
    var faceNormals = [SIMD3<Float>](repeating: .zero, count: faces)
    faceNormals.withUnsafeMutableBufferPointer { normals in
      let out = UnsafeSendableMutablePointer(normals.baseAddress!)
      forEachBand(bands, threads: bands) { band in
        perBand.set(band) {
          triangulate(faces: (band * faces / bands)..<((band + 1) * faces / bands), normals: out.pointer)
        }
      }
    }
    var triangleCorners: [Int] = []
    triangleCorners.reserveCapacity(obj.triangleCount * 3)
    for case .success(let corners) in perBand.all() { triangleCorners += corners }
    return (triangleCorners, faceNormals)
  }

  /// The triangle corners of faces `faces`, their normals written into `normals` (indexed by face).
  private func triangulate(faces: Range<Int>, normals: UnsafeMutablePointer<SIMD3<Float>>) -> [Int] {
    var triangleCorners: [Int] = []
    triangleCorners.reserveCapacity(3 * (obj.faceStarts[faces.upperBound] - obj.faceStarts[faces.lowerBound]))
    var points: [SIMD3<Float>] = []
    obj.positions.withUnsafeBufferPointer { positions in
      obj.corners.withUnsafeBufferPointer { corners in
        for f in faces {
          let start = obj.faceStarts[f], end = obj.faceStarts[f + 1]
          @inline(__always) func point(_ k: Int) -> SIMD3<Float> {
            positions[Int(corners[start + k].position)]
          }
          switch end - start {
          case 3:
            normals[f] = Triangulation.newellNormal(count: 3, point)
            triangleCorners += [start, start + 1, start + 2]
          case 4:
            let normal = Triangulation.newellNormal(count: 4, point)
            normals[f] = normal
            if Triangulation.splitsAtFirstCorner(point(0), point(1), point(2), point(3), normal: normal) {
              triangleCorners += [start, start + 1, start + 2, start, start + 2, start + 3]
            } else {
              triangleCorners += [start + 1, start + 2, start + 3, start + 1, start + 3, start]
            }
          default:
            points.removeAll(keepingCapacity: true)
            for k in 0..<(end - start) { points.append(point(k)) }
            normals[f] = Triangulation.newellNormal(points)
            for (a, b, c) in Triangulation.triangulate(points) {
              triangleCorners += [start + a, start + b, start + c]
            }
          }
        }
      }
    }
    return triangleCorners
  }

  /// Each corner's normal key, and the computed normals' accumulators: one per (position,
  /// smoothing group), or per face corner when smoothing is off (flat). Accumulators of one
  /// position are chained through `nextSlot`, so finding a group's slot is a short walk
  /// instead of a hash look-up.
  func normalKeys(faceNormals: [SIMD3<Float>]) -> (keys: [Int64], accumulators: [SIMD3<Float>]) {
    var accumulators: [SIMD3<Float>] = []
    var slotGroup: [UInt32] = [], nextSlot: [Int32] = []
    var firstSlot = [Int32](repeating: -1, count: obj.positions.count)
    var cornerNormalKey = [Int64](repeating: 0, count: obj.corners.count)
    var runIndex = 0
    for f in 0..<obj.faceCount {
      while runIndex + 1 < obj.faceRuns.count && obj.faceRuns[runIndex + 1].firstFace <= f { runIndex += 1 }
      let smoothing = obj.faceRuns.isEmpty ? 0 : obj.faceRuns[runIndex].smoothingGroup
      for c in obj.faceStarts[f]..<obj.faceStarts[f + 1] {
        let corner = obj.corners[c]
        if corner.normal >= 0 {
          cornerNormalKey[c] = Int64(corner.normal)
          continue
        }
        var slot = -1
        if smoothing != 0 {
          var s = firstSlot[Int(corner.position)]
          while s >= 0 && slotGroup[Int(s)] != smoothing { s = nextSlot[Int(s)] }
          slot = Int(s)
        }
        if slot >= 0 {
          accumulators[slot] += faceNormals[f]
        } else {
          // A new slot; flat corners get one each and are never found again (group 0).
          slot = accumulators.count
          accumulators.append(faceNormals[f])
          slotGroup.append(smoothing)
          nextSlot.append(smoothing == 0 ? -1 : firstSlot[Int(corner.position)])
          if smoothing != 0 { firstSlot[Int(corner.position)] = Int32(slot) }
        }
        cornerNormalKey[c] = -1 - Int64(slot)
      }
    }
    return (cornerNormalKey, accumulators)
  }

  /// The mesh's vertices and indices: corners with the same position, texture coordinate and
  /// normal share one vertex. Vertices of one position are chained through `nextVertex` (most
  /// positions have one or a few), which is much faster than hashing every corner.
  func unifiedVertices(_ triangleCorners: [Int], normalKeys: [Int64], accumulators: [SIMD3<Float>]) -> Mesh {
    var firstVertex = [Int32](repeating: -1, count: obj.positions.count)
    var nextVertex: [Int32] = [], vertexTexcoord: [Int32] = [], vertexNormalKey: [Int64] = []
    var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = []
    var texcoords: [SIMD2<Float>] = [], colors: [SIMD3<Float>] = []
    let hasTexcoords = obj.corners.contains { $0.texcoord >= 0 }
    let hasColors = !obj.colors.isEmpty
    var indices: [UInt32] = []
    indices.reserveCapacity(triangleCorners.count)
    for c in triangleCorners {
      let corner = obj.corners[c]
      let normalKey = normalKeys[c]
      var v = firstVertex[Int(corner.position)]
      while v >= 0 && (vertexTexcoord[Int(v)] != corner.texcoord || vertexNormalKey[Int(v)] != normalKey) {
        v = nextVertex[Int(v)]
      }
      if v >= 0 {
        indices.append(UInt32(v))
        continue
      }
      let new = Int32(positions.count)
      nextVertex.append(firstVertex[Int(corner.position)])
      firstVertex[Int(corner.position)] = new
      vertexTexcoord.append(corner.texcoord)
      vertexNormalKey.append(normalKey)
      positions.append(obj.positions[Int(corner.position)])
      normals.append(
        normalKey >= 0
          ? Self.unitKeepingExact(obj.normals[Int(normalKey)]) : Self.unit(accumulators[Int(-1 - normalKey)]))
      if hasTexcoords {
        let t = corner.texcoord >= 0 ? obj.texcoords[Int(corner.texcoord)] : .zero
        texcoords.append(SIMD2(t.x, t.y))
      }
      if hasColors { colors.append(obj.colors[Int(corner.position)]) }
      indices.append(UInt32(new))
    }
    return Mesh(
      positions: positions, normals: normals, texcoords: texcoords, colors: colors, indices: indices,
      submeshes: [], materials: [], origin: obj.origin)
  }

  /// The submeshes (consecutive triangles with the same material) and the materials they use:
  /// one slot per `usemtl` name in first-use order, plus the fallback where a run has none.
  func submeshes() -> ([Mesh.Submesh], [Material]) {
    var materials: [Material] = obj.materialNames.map { library[$0] ?? Material(name: $0) }
    var fallbackIndex: Int? = nil
    var submeshes: [Mesh.Submesh] = []
    var triangle = 0
    for (r, run) in obj.faceRuns.enumerated() {
      let lastFace = r + 1 < obj.faceRuns.count ? obj.faceRuns[r + 1].firstFace : obj.faceCount
      var triangles = 0
      for f in run.firstFace..<lastFace { triangles += obj.faceStarts[f + 1] - obj.faceStarts[f] - 2 }
      guard triangles > 0 else { continue }
      let material: Int
      if run.material >= 0 {
        material = run.material
      } else {
        if fallbackIndex == nil {
          materials.append(.fallback)
          fallbackIndex = materials.count - 1
        }
        material = fallbackIndex!
      }
      if let last = submeshes.last, last.material == material, last.triangles.upperBound == triangle {
        submeshes[submeshes.count - 1].triangles = last.triangles.lowerBound..<(triangle + triangles)
      } else {
        submeshes.append(Mesh.Submesh(triangles: triangle..<(triangle + triangles), material: material))
      }
      triangle += triangles
    }
    if materials.isEmpty { materials = [.fallback] }
    return (submeshes, materials)
  }

  /// A file's normal as written when it is already unit length to within a few ulps (so a
  /// written mesh reads back bit for bit), else normalised.
  static func unitKeepingExact(_ v: SIMD3<Float>) -> SIMD3<Float> {
    abs((v * v).sum() - 1) <= 8 * Float.ulpOfOne ? v : unit(v)
  }

  /// `v` normalised, or +Z for a zero or non-finite vector (a degenerate face has no direction).
  static func unit(_ v: SIMD3<Float>) -> SIMD3<Float> {
    let l = (v * v).sum().squareRoot()
    return l > 0 && l.isFinite ? v / l : SIMD3(0, 0, 1)
  }
}
