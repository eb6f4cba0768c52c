import ARHit
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARTestSupport
import Dispatch
import EmbreeOracle
import Foundation

/// Ray casting against Embree 3.13 on the same ≥ 100k-triangle mesh (a bumpy sphere: rays meet
/// it at many depths): BVH build, 1M incoherent closest-hit rays on 2 threads, and the tap
/// workload (build once, then 1,000 taps of 12 rays each: the tap ray and 11 visibility rays to
/// the targets). Ours is Double and watertight; Embree is single precision.
func hitWorkloads(quick: Bool) -> [Row] {
  var rng = SplitMix64(seed: 91)
  let mesh = bumpySphere(segments: quick ? 60 : 230)
  let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
  let indices = mesh.indices.map { Int($0) }
  let flatVertices = mesh.positions.flatMap { [$0.x, $0.y, $0.z] }
  let triangles = mesh.triangleCount
  var rows: [Row] = []
  let label = "\(triangles / 1000)k"

  var bvh: BoundingVolumeHierarchy? = nil
  var embree: UnsafeMutableRawPointer? = nil
  rows.append(
    compare("BVH build, \(label) triangles", peer: "Embree", rounds: hitRounds) {
      bvh = try! BoundingVolumeHierarchy(positions: positions, indices: indices)
    } peerRun: {
      if let e = embree { embree_oracle_release(e) }
      embree = embree_oracle_build(flatVertices, mesh.positions.count, mesh.indices, triangles)
    })

  rows.append(
    compare("BVH build, \(label) triangles (ours: Morton order)", peer: "Embree", rounds: hitRounds) {
      blackHole(try! BoundingVolumeHierarchy(positions: positions, indices: indices, quality: .fast))
    } peerRun: {
      if let e = embree { embree_oracle_release(e) }
      embree = embree_oracle_build(flatVertices, mesh.positions.count, mesh.indices, triangles)
    })

  // (When the build row is skipped by ARSCENE_BENCH_ONLY, build once here.)
  if bvh == nil { bvh = try! BoundingVolumeHierarchy(positions: positions, indices: indices) }
  if embree == nil {
    embree = embree_oracle_build(flatVertices, mesh.positions.count, mesh.indices, triangles)
  }

  // Incoherent rays: from random points around the mesh to random points inside it.
  let rayCount = quick ? 20_000 : 1_000_000
  let rays = (0..<rayCount).map { _ -> HitRay in
    let origin = 3 * (rng.unitVector3() as SIMD3<Double>)
    let target = 0.9 * (rng.unitVector3() as SIMD3<Double>) * Double.random(in: 0...1, using: &rng)
    return try! HitRay(origin: origin, direction: (target - origin).normalized())
  }
  let flatRays = rays.flatMap {
    [
      Float($0.origin.x), Float($0.origin.y), Float($0.origin.z), Float($0.direction.x),
      Float($0.direction.y),
      Float($0.direction.z),
    ]
  }
  // Both sides write into result arrays kept between rounds.
  var ours: [MeshHit?] = []
  var peerT = [Float](repeating: 0, count: rayCount)
  var peerTriangle = [Int32](repeating: 0, count: rayCount)
  let raysLabel = rayCount >= 1_000_000 ? "\(rayCount / 1_000_000)M" : "\(rayCount / 1000)k"
  rows.append(
    compare("\(raysLabel) incoherent closest-hit rays, 2 threads", peer: "Embree", rounds: hitRounds) {
      bvh!.closestHits(rays, into: &ours, threads: 2)
    } peerRun: {
      embreeClosestHits(embree!, flatRays, count: rayCount, t: &peerT, triangle: &peerTriangle)
    })
  var disagreements = 0
  for i in 0..<min(rayCount, ours.count) where (ours[i] == nil) != (peerTriangle[i] < 0) {
    disagreements += 1
  }
  hitAgreement = (disagreements, rayCount)

  // The tap workload.
  let taps = (0..<1000).flatMap { _ -> [HitRay] in
    let eye = 2.5 * (rng.unitVector3() as SIMD3<Double>)
    return (0..<12).map { _ in
      let target = 0.8 * (rng.unitVector3() as SIMD3<Double>)
      return try! HitRay(origin: eye, direction: (target - eye).normalized())
    }
  }
  let flatTaps = taps.flatMap {
    [
      Float($0.origin.x), Float($0.origin.y), Float($0.origin.z), Float($0.direction.x),
      Float($0.direction.y),
      Float($0.direction.z),
    ]
  }
  var tapT = [Float](repeating: 0, count: taps.count)
  var tapTriangle = [Int32](repeating: 0, count: taps.count)
  rows.append(
    compare(
      "taps: build + 1,000 taps × 12 rays, \(label) triangles (ours: Morton build)", peer: "Embree",
      rounds: hitRounds
    ) {
      let hierarchy = try! BoundingVolumeHierarchy(positions: positions, indices: indices, quality: .fast)
      var hits = 0
      for ray in taps where hierarchy.closestHit(ray) != nil { hits += 1 }
      blackHole(hits)
    } peerRun: {
      let scene = embree_oracle_build(flatVertices, mesh.positions.count, mesh.indices, triangles)!
      embree_oracle_intersect(scene, flatTaps, 0, taps.count, &tapT, &tapTriangle)
      embree_oracle_release(scene)
    })
  if let e = embree { embree_oracle_release(e) }
  return rows
}

/// Rounds of each --hit race (ours and Embree alternating, the fastest of each kept): nine, as
/// this VM's speed wanders by a tenth within a group and five rounds let a slow spell decide a
/// row.
private let hitRounds = 9

/// Rays whose hit/miss differs between ours and Embree in the last run, and the ray count.
nonisolated(unsafe) var hitAgreement = (0, 0)

private func embreeClosestHits(
  _ scene: UnsafeMutableRawPointer, _ rays: [Float], count: Int, t: inout [Float], triangle: inout [Int32]
) {
  let chunks = 64
  // Addresses cross into the work items as integers: Embree reads the scene and rays, and each
  // chunk writes its own range of the outputs.
  let sceneAddress = Int(bitPattern: scene)
  rays.withUnsafeBufferPointer { r in
    let raysAddress = Int(bitPattern: r.baseAddress!)
    t.withUnsafeMutableBufferPointer { tOut in
      triangle.withUnsafeMutableBufferPointer { triangleOut in
        let (tAddress, triangleAddress) = (
          Int(bitPattern: tOut.baseAddress!), Int(bitPattern: triangleOut.baseAddress!)
        )
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
          let begin = c * count / chunks, end = (c + 1) * count / chunks
          embree_oracle_intersect(
            UnsafeMutableRawPointer(bitPattern: sceneAddress)!,
            UnsafePointer<Float>(bitPattern: raysAddress)!,
            begin, end, UnsafeMutablePointer<Float>(bitPattern: tAddress)!,
            UnsafeMutablePointer<Int32>(bitPattern: triangleAddress)!)
        }
      }
    }
  }
}

/// A sphere of `segments`² quads with a bumpy radius (so rays meet it at many depths).
func bumpySphere(segments n: Int) -> Mesh {
  var mesh = sphereMesh(segments: n)
  mesh.positions = mesh.positions.map { p in
    let theta = Float.acos(max(-1, min(1, p.y))), phi = Float.atan2(y: p.z, x: p.x)
    return p * (1 + 0.12 * Float.sin(7 * theta) * Float.sin(5 * phi) + 0.05 * Float.sin(19 * theta + 3 * phi))
  }
  return mesh
}
