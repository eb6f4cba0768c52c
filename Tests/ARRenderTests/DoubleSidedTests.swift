import ARImage
import ARMath
import ARMesh
import ARRender
import Testing

/// Double-sided materials (glTF's `doubleSided`, a USD gprim's): drawn from behind even where
/// the draw culls back faces, and lit from the side seen, as glTF asks.
@Suite("Double-sided materials")
struct DoubleSidedTests {
  /// A unit quad 2 m in front of the camera, its front (counter-clockwise) facing the camera
  /// where `facing`, away from it otherwise, in a material of that `doubleSided`.
  static func quad(facing: Bool, doubleSided: Bool) -> Mesh {
    let z: Float = -2
    let corners: [SIMD3<Float>] = [[-0.5, -0.5, z], [0.5, -0.5, z], [0.5, 0.5, z], [-0.5, 0.5, z]]
    var material = Material(name: "plane")
    material.diffuse = SIMD3(0.8, 0.6, 0.4)
    material.isDoubleSided = doubleSided
    let normal = SIMD3<Float>(0, 0, facing ? 1 : -1)
    return Mesh(
      positions: corners, normals: Array(repeating: normal, count: 4),
      indices: facing ? [0, 1, 2, 0, 2, 3] : [0, 2, 1, 0, 3, 2], materials: [material])
  }

  /// The frame of the quad drawn with back faces culled, lit from the camera.
  static func render(facing: Bool, doubleSided: Bool) throws -> Image<SIMD4<UInt8>> {
    let camera = RenderCamera(
      intrinsics: CameraIntrinsics<Float>(fx: 100, fy: 100, cx: 32, cy: 32, width: 64, height: 64),
      worldFromCamera: .identity, near: 0.1, far: 10)
    let lighting = Lighting(ambient: SIMD3(repeating: 0.2), directional: [(SIMD3(0, 0, -1), SIMD3(1, 1, 1))])
    return try FrameRenderer().render(
      [try DrawCall(mesh: quad(facing: facing, doubleSided: doubleSided), cullBackFaces: true)],
      camera: camera,
      shading: .lit(lighting))
  }

  @Test("seen from behind: a one-sided quad is culled, a double-sided one drawn as bright as from the front")
  func fromBehind() throws {
    let front = try Self.render(facing: true, doubleSided: false)
    let culled = try Self.render(facing: false, doubleSided: false)
    let behind = try Self.render(facing: false, doubleSided: true)
    let centre = 32 * 64 + 32
    #expect(culled.pixels[centre] == front.pixels[0], "the background: \(culled.pixels[centre])")
    #expect(front.pixels[centre] != front.pixels[0])
    // Lit from the side seen: its normal turned towards the camera, as the front's is.
    let (a, b) = (front.pixels[centre], behind.pixels[centre])
    #expect(
      (0..<3).allSatisfy { abs(Int(a[$0]) - Int(b[$0])) <= 1 }, "front \(a), double-sided from behind \(b)")
  }
}
