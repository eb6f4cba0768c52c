import ARMesh
import Foundation

/// Model loading as `model stats` and `render --model` do it (`ModelAsset.load`: read the file,
/// build the renderable mesh with every instance placed), against trimesh's in-process load and
/// flatten, assimp's import and usd-core opening a stage and reading its points (issue 71), on
/// inputs `Tools/peers/model_load.py` writes: a GLB of about 1M triangles in 102 meshes sharing
/// six parts' accessors, and a USDZ of 980,000 triangles in 100 meshes.
func modelWorkloads(quick: Bool) -> [Row] {
  let folder = NSTemporaryDirectory() + "arscene-bench-models"
  try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let (glb, gltf, usdz) = (folder + "/shared-parts.glb", folder + "/shared-parts.gltf", folder + "/kit.usdz")
  let pythonPath = ProcessInfo.processInfo.environment["ARSCENE_MODEL_PEERS_PYTHONPATH"]
  for (mode, path) in [("write-glb", glb), ("write-gltf", gltf), ("write-usdz", usdz)]
  where !FileManager.default.fileExists(atPath: path) {
    guard
      peerOutput(["/usr/bin/python3", "Tools/peers/model_load.py", mode, path], pythonPath: pythonPath) != nil
    else { return [] }
  }
  let rounds = quick ? 1 : 5
  var rows: [Row] = []
  var triangles = 0
  let glbBytes = [UInt8](FileManager.default.contents(atPath: glb)!)
  let glbName = "model load: GLB of 999,600 triangles, 102 meshes over 6 parts' shared accessors"
  let ours = oursOnly(glbName, rounds: rounds) {
    triangles = try! ModelAsset.load(path: glb).mesh.triangleCount
  }
  /// Our row against a peer's fastest time (the script's first line; NaN when it did not run).
  func race(_ ours: Row, _ peer: String, _ command: [String]) -> Row {
    let output = runPeer(command, pythonPath: pythonPath)
    if let faces = output?.last {
      precondition(Int(faces) == triangles, "\(peer) read \(faces) triangles, ours \(triangles)")
    }
    let theirs = output?.first ?? .nan
    return Row(
      workload: ours.workload, ours_s: ours.ours_s, peer: peer, peer_s: theirs, ratio: ours.ours_s / theirs)
  }
  rows.append(
    race(
      ours, "trimesh 4.5 load, force=mesh",
      ["/usr/bin/python3", "Tools/peers/model_load.py", "trimesh", glb, "\(rounds)"]))
  var peer = (vertices: 0, faces: 0)
  rows.append(
    compare(glbName, peer: "assimp 5.2 (no post-processing)", rounds: rounds) {
      triangles = try! ModelAsset.load(path: glb).mesh.triangleCount
    } peerRun: {
      peer = assimpImport(glbBytes, hint: "glb")
    })
  precondition(
    peer.faces == 0 || peer.faces == triangles, "assimp read \(peer.faces) triangles, ours \(triangles)")
  let gltfName = "model load: the same as .gltf with its buffer in a .bin"
  let text = oursOnly(gltfName, rounds: rounds) {
    triangles = try! ModelAsset.load(path: gltf).mesh.triangleCount
  }
  rows.append(
    race(
      text, "trimesh 4.5 load, force=mesh",
      ["/usr/bin/python3", "Tools/peers/model_load.py", "trimesh", gltf, "\(rounds)"]))
  let usdName = "model load: USDZ of 980,000 triangles in 100 meshes"
  let usd = oursOnly(usdName, rounds: rounds) {
    triangles = try! ModelAsset.load(path: usdz).mesh.triangleCount
  }
  rows.append(
    race(
      usd, "usd-core 26.11 open + points",
      ["/usr/bin/python3", "Tools/peers/model_load.py", "usd", usdz, "\(rounds)"]))
  return rows
}
