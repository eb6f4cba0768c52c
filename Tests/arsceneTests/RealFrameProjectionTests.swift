import ARImage
import ARImageIO
import ARTestSupport
import Foundation
import Testing

/// Content drawn on a real capture's frames lands where OpenCV projects it: the TUM RGB-D
/// excerpt (a real Kinect, its radial-tangential lens, motion-capture truth at 100 Hz, the
/// camera turning 600 px a second), against `cv2.projectPoints` through the truth's pose at each
/// frame's time (Tools/peers/tum_point_projection.py).
@Suite("Real frames against OpenCV", .enabled(if: RealData.available, Comment(rawValue: RealData.absent)))
struct RealFrameProjectionTests {
  struct Peer: Decodable {
    var point: [Double]
    var pixels: [[Double]]
  }

  @Test("a 6 mm cube 1 m ahead is drawn within 0.1 px of OpenCV's projection on five real frames")
  func drawnWhereOpenCVProjects() throws {
    let capture = RealData.path("frames/tum_rgbd_fr1_rpy_excerpt")
    let peer = try PythonPeer.runScript(
      PythonPeer.packageRoot + "/Tools/peers/tum_point_projection.py", arguments: [capture, "5"])
    #expect(peer.status == 0, "\(peer.output.prefix(300))")
    let expected = try JSONDecoder().decode(Peer.self, from: Data(peer.output.utf8))
    let folder = try TemporaryFolder()
    let side = 0.006
    let corner = expected.point.map { $0 - side / 2 }
    let scene = try folder.write(
      #"{"output":{"width":64,"height":48},"camera":{"vertical_fov_deg":60,"look_at":{"eye":[0,1,5],"target":[0,0,0]}},"objects":[{"model":"\#(Fixtures.path("obj/cube_quads.obj"))","transform":{"translation":[\#(corner[0]),\#(corner[1]),\#(corner[2])],"scale":[\#(side),\#(side),\#(side)]}}]}"#,
      to: "scene.json")
    let run = try ArsceneRunner.run([
      "render", "--recording", capture, "--scene", scene, "--frames", folder.path + "/out", "--layers",
      "--range", "0:4", "--samples", "16", "--no-occlusion", "--allow-path", Fixtures.root,
      "--allow-path", RealData.path(""),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    for (i, pixel) in expected.pixels.enumerated() {
      // The content layer's alpha is the cube's coverage: its centroid, in OpenCV's pixel
      // coordinates (centres at integers; ARScene's at +0.5, so a pixel's index is OpenCV's).
      let layer = try ImageFile.readRGBA8(folder.path + "/out/" + String(format: "overlay_%06d.png", i))
      var (sum, x, y) = (0.0, 0.0, 0.0)
      for (k, p) in layer.pixels.enumerated() where p.w > 0 {
        let a = Double(p.w)
        (sum, x, y) = (sum + a, x + a * Double(k % layer.width), y + a * Double(k / layer.width))
      }
      #expect(sum > 0)
      let (u, v) = (x / sum, y / sum)
      #expect(
        abs(u - pixel[0]) < 0.1 && abs(v - pixel[1]) < 0.1, "frame \(i): (\(u), \(v)) vs OpenCV \(pixel)")
    }
  }
}
