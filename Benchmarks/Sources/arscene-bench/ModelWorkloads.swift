import ARMesh
import ARMeshCompression
import Foundation

/// Model loading as `render --model` does it (`ModelAsset.load`: read the file, build the
/// renderable mesh with every instance placed) and, for the USDZ, as `model stats` does it
/// (`ModelStatistics.read`, which assembles no mesh), against trimesh's in-process load and
/// flatten, assimp's import and usd-core opening a stage and reading its points (issue 71), on
/// inputs `Tools/peers/model_load.py` writes: a GLB of about 1M triangles in 102 meshes sharing
/// six parts' accessors, a GLB of 960,000 triangles in 48 Draco-compressed meshes and a USDZ of
/// 980,000 triangles in 100 meshes; and on the OBJ height
/// field at `obj` (`label` says its size), so that every asset class has its rows.
func modelWorkloads(quick: Bool, obj: String, label: String) -> [Row] {
  let folder = NSTemporaryDirectory() + "arscene-bench-models"
  try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let (glb, gltf, usdz) = (folder + "/shared-parts.glb", folder + "/shared-parts.gltf", folder + "/kit.usdz")
  let draco = folder + "/draco-tiles.glb"
  let pythonPath = ProcessInfo.processInfo.environment["ARSCENE_MODEL_PEERS_PYTHONPATH"]
  DracoDecoding.register()
  for (mode, path) in [
    ("write-glb", glb), ("write-gltf", gltf), ("write-draco-glb", draco), ("write-usdz", usdz),
  ]
  where !FileManager.default.fileExists(atPath: path) {
    guard
      peerOutput(["/usr/bin/python3", "Tools/peers/model_load.py", mode, path], pythonPath: pythonPath) != nil
    else { return [] }
  }
  let rounds = quick ? 1 : 5
  var rows: [Row] = []
  var triangles = 0
  let glbName = "model load: GLB of 999,600 triangles, 102 meshes over 6 parts' shared accessors"
  /// Our load of `path` (fastest of `rounds`) against the peer script's `mode` on the same
  /// file: its fastest time on its first line, the triangles it read on its last (NaN when it
  /// did not run). Three passes of ours then the peer's, each side's fastest kept: a slow spell
  /// of the shared VM (usd-core's 5.5 ms row took 10–20 in some) then falls on both sides, not
  /// on whichever ran through it.
  func race(_ name: String, _ path: String, _ peer: String, _ mode: String, statistics: Bool = false) -> Row {
    let environment = ProcessInfo.processInfo.environment
    let alone = environment["ARSCENE_BENCH_OURS_ONLY"] != nil
    // ARSCENE_BENCH_ROUNDS counts for the peer as for ours (it once gave ours more rounds).
    let peerRounds = environment["ARSCENE_BENCH_ROUNDS"].flatMap { Int($0) } ?? rounds
    var (ours, theirs) = (Double.infinity, Double.infinity)
    var workload = name
    for _ in 0..<(quick ? 1 : 3) {
      let pass = oursOnly(name, rounds: rounds) {
        triangles =
          statistics
          ? try! ModelStatistics.read(path: path).statistics.triangles
          : try! ModelAsset.load(path: path).mesh.triangleCount
      }
      // A row ARSCENE_BENCH_ONLY leaves out runs no peer either.
      guard !pass.ours_s.isNaN else { return pass }
      (ours, workload) = (min(ours, pass.ours_s), pass.workload)
      let output =
        alone
        ? nil
        : runPeer(
          ["/usr/bin/python3", "Tools/peers/model_load.py", mode, path, "\(peerRounds)"],
          pythonPath: pythonPath)
      if let faces = output?.last {
        precondition(Int(faces) == triangles, "\(peer) read \(faces) triangles, ours \(triangles)")
      }
      // A peer that did not run (or ARSCENE_BENCH_OURS_ONLY) leaves its column NaN.
      guard let time = output?.first else {
        theirs = .nan
        break
      }
      theirs = min(theirs, time)
    }
    return Row(workload: workload, ours_s: ours, peer: peer, peer_s: theirs, ratio: ours / theirs)
  }
  /// Our load of `path` against assimp's import of its bytes (format `hint`), whose faces are
  /// `trianglesPerFace` of our triangles each (assimp without post-processing keeps polygons).
  func againstAssimp(_ name: String, _ path: String, hint: String, trianglesPerFace: Int) -> Row {
    let bytes = [UInt8](FileManager.default.contents(atPath: path)!)
    var peer = (vertices: 0, faces: 0)
    let row = compare(name, peer: "assimp 5.2 (no post-processing)", rounds: rounds) {
      triangles = try! ModelAsset.load(path: path).mesh.triangleCount
    } peerRun: {
      peer = assimpImport(bytes, hint: hint)
    }
    precondition(
      peer.faces == 0 || trianglesPerFace * peer.faces == triangles,
      "assimp read \(peer.faces) faces of \(hint), ours \(triangles) triangles")
    return row
  }
  rows.append(race(glbName, glb, "trimesh 4.5 load, force=mesh", "trimesh"))
  rows.append(againstAssimp(glbName, glb, hint: "glb", trianglesPerFace: 1))
  rows.append(
    race(
      "model load: the same as .gltf with its buffer in a .bin", gltf, "trimesh 4.5 load, force=mesh",
      "trimesh"))
  // trimesh reads no Draco: assimp (built with Draco on Debian) is this class's peer.
  rows.append(
    againstAssimp(
      "model load: Draco GLB of 960,000 triangles in 48 meshes", draco, hint: "glb", trianglesPerFace: 1))
  rows.append(
    race("model load: USDZ of 980,000 triangles in 100 meshes", usdz, "usd-core 26.11 open + points", "usd"))
  // `model stats` reads the stage without assembling its mesh (no vertex arrays, no normals):
  // the same work as usd-core's row, which reads points and transforms and builds nothing.
  rows.append(
    race(
      "model stats: the same USDZ (ModelStatistics.read: counts and bounds, no mesh assembled)", usdz,
      "usd-core 26.11 open + points", "usd", statistics: true))
  rows.append(race("model load: \(label)", obj, "trimesh 4.5 load, force=mesh", "trimesh"))
  // The height field's faces are quads.
  rows.append(againstAssimp("model load: \(label)", obj, hint: "obj", trianglesPerFace: 2))
  return rows
}
