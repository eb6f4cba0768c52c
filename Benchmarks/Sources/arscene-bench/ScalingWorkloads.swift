import ARFilm
import ARGeo
import ARHit
import ARImage
import ARMath
import ARMesh
import ARPlaces
import ARRecording
import ARRender
import ARScene
import ARTestSupport
import Foundation

/// How each parallel path scales: the same work on 2 and on 4 threads against 1, side by side
/// (`--scaling`). Each row's ratio is the time on N threads over the time on 1: 0.5 is a
/// perfect second core. On this 2-core machine the 4-thread rows are oversubscribed: they show
/// that the split into chunks holds when there are more workers than cores (no lock or queue
/// per pixel, row or ray to fight over), not a speed-up past 2.
func scalingWorkloads(quick: Bool) -> [Row] {
  var rows: [Row] = []
  /// Rows for `body(threads)` on 2 and 4 threads against 1.
  func scaling(_ name: String, _ body: @escaping (Int) -> Void) {
    for threads in [2, 4] {
      rows.append(
        compare(
          "\(name), \(threads) threads against 1", peer: "ours on 1 thread", rounds: 10,
          budget: secondCoreWindow.budget, maximumRounds: secondCoreWindow.maximumRounds
        ) {
          body(threads)
        } peerRun: {
          body(1)
        })
    }
  }

  // Tile rendering: a 100k-triangle model filling much of a 1280×720 frame, lit.
  let mesh = bumpySphere(segments: quick ? 60 : 230)
  let draw = try! DrawCall(mesh: mesh, cullBackFaces: true)
  let (w, h) = quick ? (320, 240) : (1280, 720)
  let camera = RenderCamera(
    intrinsics: CameraIntrinsics(
      fx: Float(w), fy: Float(w), cx: Float(w) / 2, cy: Float(h) / 2, width: w, height: h),
    worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 3]), near: 0.1, far: 100)
  let renderer = FrameRenderer()
  var frame = RGBA8Image(width: 0, height: 0, pixels: [])
  scaling("render a \(mesh.triangleCount / 1000)k-triangle model at \(w)×\(h), lit") { threads in
    try! renderer.render(
      [draw], camera: camera, shading: .lit(.init()),
      settings: RenderSettings(supersampling: 1, threads: threads),
      into: &frame)
  }

  // Ray batches: incoherent closest hits against the same model.
  var random = SplitMix64(seed: 5)
  let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
  let bvh = try! BoundingVolumeHierarchy(positions: positions, indices: mesh.indices.map { Int($0) })
  let rays = (0..<(quick ? 20_000 : 200_000)).map { _ -> HitRay in
    let origin = 3 * (random.unitVector3() as SIMD3<Double>)
    let target = 0.9 * (random.unitVector3() as SIMD3<Double>) * Double.random(in: 0...1, using: &random)
    return try! HitRay(origin: origin, direction: (target - origin).normalized())
  }
  var hits: [MeshHit?] = []
  scaling("\(rays.count / 1000)k incoherent closest-hit rays") { threads in
    bvh.closestHits(rays, into: &hits, threads: threads)
  }

  // Film rows: the warm-gold preset on a 3 MP photo.
  let (pw, ph) = quick ? (504, 378) : (2016, 1512)
  let photo = syntheticPhoto(width: pw, height: ph, seed: 35)
  let look = try! FilmLook(named: "warm-gold-200")
  scaling("film preset warm-gold-200 on a \(pw)×\(ph) photo") { threads in
    blackHole(look.apply(to: photo, context: FilmContext(seed: 1, threads: threads)))
  }

  // Place queries: a batch of radius queries, capped at 20 each.
  let places = (0..<(quick ? 20_000 : 200_000)).map { i in
    PointOfInterest(
      id: String(i),
      coordinate: GeodeticCoordinate(
        latitudeDegrees: 50.0 + Double.random(in: -0.5...0.5, using: &random),
        longitudeDegrees: 14.4 + Double.random(in: -0.8...0.8, using: &random)))
  }
  let index = try! PlaceIndex(places)
  let queries = (0..<4000).map { _ in
    GeodeticCoordinate(
      latitudeDegrees: 50.0 + Double.random(in: -0.4...0.4, using: &random),
      longitudeDegrees: 14.4 + Double.random(in: -0.6...0.6, using: &random))
  }
  scaling("4,000 radius queries (2 km, at most 20 each), \(places.count / 1000)k places") { threads in
    blackHole(try! index.within(2000, of: queries, limit: 20, threads: threads))
  }
  // Validation of a manifest: eight simulated walks, each recording a worker's, by the arscene
  // binary built beside this one (its process start is in every round, on both sides).
  if let manifest = simulatedManifest(walks: 8, records: quick ? 2_000 : 40_000) {
    let arscene = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("arscene").path
    scaling("arscene validate --manifest, 8 walks of \(quick ? 2 : 40)k records") { threads in
      _ = runChild([
        arscene, "validate", "--manifest", manifest, "--scene", "Scenes/zavist.json", "--threads",
        "\(threads)",
      ])
    }
    try? FileManager.default.removeItem(atPath: (manifest as NSString).deletingLastPathComponent)
  }
  blackHole(frame)
  return rows
}

/// A manifest of `walks` simulated Závist walks of about `records` records each, in a
/// temporary folder of its own (the caller removes it), or nil when the scene cannot be read.
private func simulatedManifest(walks: Int, records: Int) -> String? {
  guard let geoSite = try? GeoSite.load(scene: "Scenes/zavist.json") else { return nil }
  let site = GeoSite(frame: geoSite.frame, anchors: geoSite.anchors)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "arscene-bench-manifest-\(getpid())")
  try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  var names: [String] = []
  for seed in 1...walks {
    let name = "walk\(seed).jsonl"
    guard let path = try? WalkPath.tour(site) else { return nil }
    let simulator = SessionSimulator(
      site: site, path: path, seed: UInt64(seed), duration: Double(records) / 61.0)
    guard
      let writer = try? RecordingWriter(
        path: folder.appendingPathComponent(name).path, header: simulator.header)
    else { return nil }
    try? simulator.run { record throws(RecordingError) in try writer.write(record) }
    try? writer.finish()
    names.append(name)
  }
  let manifest = folder.appendingPathComponent("manifest.txt").path
  try? (names.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
  return manifest
}
