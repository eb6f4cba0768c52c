import ARImage
import ARMath
import ARMesh
import ARRender
import Foundation
import MesaOracle
import Testing

/// Depth keeps its precision from ARKit's 1 mm near plane to geo-anchored content hundreds of
/// metres away: a spider of thin legs 300 m off renders the same with a 1 mm near plane as with
/// a 10 m one, where a standard OpenGL depth buffer (Mesa's llvmpipe) lets the legs' back faces
/// show through their fronts.
@Suite("Depth precision at AR ranges")
struct DepthPrecisionTests {
  /// The triangles (three unshared vertices each, outward counter-clockwise) of a box.
  static func box(_ centre: SIMD3<Float>, _ half: SIMD3<Float>, turn: Quaternion<Float> = .identity)
    -> [SIMD3<Float>]
  {
    var corners: [SIMD3<Float>] = []
    for i in 0..<8 {
      let s = SIMD3<Float>(i & 1 == 0 ? -1 : 1, i & 2 == 0 ? -1 : 1, i & 4 == 0 ? -1 : 1)
      corners.append(centre + turn.act(s * half))
    }
    let faces: [[Int]] = [
      [0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5],
    ]
    return faces.flatMap { f in
      [corners[f[0]], corners[f[1]], corners[f[2]], corners[f[0]], corners[f[2]], corners[f[3]]]
    }
  }

  /// A body and eight legs 3 cm thick, 300 m in front of the origin (metres, +Y up).
  static let spider: [SIMD3<Float>] = {
    let centre = SIMD3<Float>(0, 1, -300)
    var triangles = box(centre, [0.5, 0.3, 0.6])
    for k in 0..<8 {
      let angle = Float(k) * .pi / 4 + .pi / 8
      let turn =
        Quaternion<Float>(angle: .radians(angle), axis: [0, 1, 0])
        * Quaternion<Float>(angle: .radians(-0.5), axis: [0, 0, 1])
      triangles += box(centre + turn.act([1.1, 0, 0]), [0.8, 0.015, 0.015], turn: turn)
    }
    return triangles
  }()

  static let towardsLight = SIMD3<Float>(0.2, 0.4, 1).normalized()

  static func camera(near: Float) -> RenderCamera {
    RenderCamera(
      intrinsics: CameraIntrinsics(fx: 30_000, fy: 30_000, cx: 240, cy: 180, width: 480, height: 360),
      worldFromCamera: RigidTransform(rotation: .identity, translation: [0, 1.3, 0]), near: near, far: 1000)
  }

  static func ours(near: Float) throws -> RGBA8Image {
    let normals = stride(from: 0, to: spider.count, by: 3).flatMap { i -> [SIMD3<Float>] in
      let n = (spider[i + 1] - spider[i]).cross(spider[i + 2] - spider[i]).normalized()
      return [n, n, n]
    }
    let mesh = Mesh(positions: spider, normals: normals, indices: (0..<UInt32(spider.count)).map { $0 })
    return try Renderer.render(
      [try DrawCall(mesh: mesh, cullBackFaces: false)], camera: camera(near: near),
      shading: .lambert(towardsLight: towardsLight))
  }

  /// The same triangles in Mesa's llvmpipe with OpenGL's depth (24 bits, GL_LESS), the same grey
  /// per face.
  static func mesa(near: Float) -> [UInt8] {
    setenv("LP_NUM_THREADS", "2", 0)
    let context = mesa_oracle_create(480, 360)!
    defer { mesa_oracle_destroy(context) }
    var colors: [UInt8] = []
    for i in stride(from: 0, to: spider.count, by: 3) {
      let n = (spider[i + 1] - spider[i]).cross(spider[i + 2] - spider[i]).normalized()
      let grey = UInt8((255 * max(0, (n * towardsLight).sum())).rounded())
      colors += Array(repeating: grey, count: 9)
    }
    let positions = spider.flatMap { [$0.x, $0.y, $0.z] }
    mesa_oracle_draw(
      context, positions, colors, spider.count / 3, camera(near: near).clipFromWorld.columnMajorElements)
    var rgba = [UInt8](repeating: 0, count: 480 * 360 * 4)
    mesa_oracle_read(context, &rgba)
    return rgba
  }

  @Test(
    "the spider 300 m away renders the same with a 1 mm near plane as with a 10 m one; llvmpipe's does not")
  func spiderAt300Metres() throws {
    let (fine, comfortable) = (try Self.ours(near: 0.001), try Self.ours(near: 10))
    let covered = comfortable.pixels.filter { $0.w > 0 && $0.x > 0 }.count
    #expect(covered > 5_000, "the spider covers \(covered) pixels")
    let differing = zip(fine.pixels, comfortable.pixels).filter { $0 != $1 }.count
    // Within the fill rule: where a leg's faces meet edge-on their depths tie, and rounding may
    // pick the other (6 of 7,533 pixels here).
    #expect(
      differing <= covered / 500, "\(differing) of \(covered) pixels differ between near 1 mm and near 10 m")
    // The standard depth buffer at 1 mm cannot tell a leg's front from its back 3 cm behind.
    let (glFine, glComfortable) = (Self.mesa(near: 0.001), Self.mesa(near: 10))
    let glDiffering = stride(from: 0, to: glFine.count, by: 4).filter { glFine[$0] != glComfortable[$0] }
      .count
    #expect(glDiffering > covered / 2, "llvmpipe: only \(glDiffering) pixels differ")
  }
}
