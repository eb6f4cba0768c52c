import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARRender
import Foundation

/// Which triangle owns a sample centre lying exactly on a shared edge, ARScene against
/// llvmpipe: a grid whose vertices sit on pixel centres, so that its horizontal, vertical and
/// diagonal edges run through rows, columns and diagonals of centres, each triangle drawn
/// alone (unlit) by both. Covering the union alike is not enough: this compares each
/// triangle's own pixels. Returns how many pixels differ, summed over the triangles.
func fillRuleDifferences(mesa: Mesa, size: Int) -> (differing: Int, triangles: Int) {
  let camera = RenderCamera(
    intrinsics: CameraIntrinsics(
      fx: Float(size), fy: Float(size), cx: Float(size) / 2, cy: Float(size) / 2, width: size, height: size),
    worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 0, 1]), near: 0.1, far: 10)
  // Pixel centre (i + 0.5, j + 0.5) on the z = 0 plane, exactly in binary.
  func centre(_ i: Int, _ j: Int) -> SIMD3<Float> {
    SIMD3((Float(i) + 0.5) / Float(size) - 0.5, 0.5 - (Float(j) + 0.5) / Float(size), 0)
  }
  var triangles: [[SIMD3<Float>]] = []
  let step = size / 8
  for j in stride(from: 2, to: size - step, by: step) {
    for i in stride(from: 2, to: size - step, by: step) {
      let a = centre(i, j), b = centre(i + step, j), c = centre(i + step, j + step), d = centre(i, j + step)
      // Both diagonals, alternating, and both windings.
      triangles += (i / step + j / step) % 2 == 0 ? [[a, d, c], [a, c, b]] : [[a, d, b], [b, d, c]]
    }
  }
  var differing = 0
  for t in triangles {
    let mesh = Mesh(positions: t, normals: Array(repeating: [0, 0, 1], count: 3), indices: [0, 1, 2])
    let draw = try! DrawCall(mesh: mesh, cullBackFaces: false)
    let ours = try! Renderer.render([draw], camera: camera, shading: .unlit)
    mesa.draw(FlatTriangles([draw], towardsLight: nil), clipFromWorld: camera.clipFromWorld)
    let theirs = mesa.read()
    differing += zip(ours.pixels, theirs.pixels).filter { $0.x != $1.x }.count
  }
  return (differing, triangles.count)
}
