import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARTestSupport
import Foundation
import Testing

/// `arscene calibrate` on photographs of a marker board rendered through a known lens: it
/// recovers the camera that took them.
@Suite("arscene calibrate")
struct CalibrateCommandTests {
  /// A 5×4 grid board of 4 cm aruco_6x6_250 markers 1 cm apart with a 2 cm white margin, at
  /// half a millimetre a pixel, as `board.png` beside a textured quad `board.obj` of its size
  /// (the board's top-left marker corner at the world's (0, 0.19, 0), facing +z).
  static func boardModel(in folder: TemporaryFolder) throws -> String {
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    var image = RGBA8Image(width: 560, height: 460, fill: SIMD4(255, 255, 255, 255))
    for id in 0..<20 {
      let marker = try dictionary.image(id: id, pixels: 80, quietZone: 0)
      let (left, top) = (40 + (id % 5) * 100, 40 + (id / 5) * 100)
      for y in 0..<80 {
        for x in 0..<80 { image[left + x, top + y] = marker[x * marker.width / 80, y * marker.height / 80] }
      }
    }
    try ImageFile.writePNG(image, to: folder.path + "/board.png")
    _ = try folder.write("newmtl board\nKd 1 1 1\nmap_Kd board.png\n", to: "board.mtl")
    return try folder.write(
      """
      mtllib board.mtl
      v -0.02 -0.02 0
      v 0.26 -0.02 0
      v 0.26 0.21 0
      v -0.02 0.21 0
      vt 0 0
      vt 1 0
      vt 1 1
      vt 0 1
      usemtl board
      f 1/1 2/2 3/3 4/4
      """, to: "board.obj")
  }

  @Test(
    "six rendered views through a webcam's lens: the intrinsics within 1%, the lens within 1 px where the views see"
  )
  func rendered() throws {
    let folder = try TemporaryFolder()
    let model = try Self.boardModel(in: folder)
    let eyes: [[Double]] = [
      [0.12, 0.095, 0.42], [0.30, 0.14, 0.38], [-0.05, 0.02, 0.40], [0.18, -0.10, 0.37], [-0.08, 0.22, 0.39],
      [0.25, 0.30, 0.36],
    ]
    var images: [String] = []
    for (i, eye) in eyes.enumerated() {
      let scene = try folder.write(
        """
        {"output": {"width": 640, "height": 480}, "background": {"color": [0.3, 0.3, 0.3]},
         "camera": {"intrinsics": {"fx": 610, "fy": 604, "cx": 323.5, "cy": 236.8},
                    "look_at": {"eye": \(eye), "target": [0.12, 0.095, 0]},
                    "distortion": [-0.24, 0.09, 0.0008, -0.0006, 0]},
         "lights": {"ambient": [1, 1, 1], "directional": []},
         "objects": [{"name": "board", "model": "\(model)"}]}
        """, to: "view\(i).json")
      let run = try ArsceneRunner.run([
        "render", scene, "-o", folder.path + "/view\(i).png", "--samples", "4",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      images.append(folder.path + "/view\(i).png")
    }
    let outcome = try ArsceneRunner.run(
      ["calibrate", "--board", "grid:5x4:0.04:0.01:aruco_6x6_250"] + images)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      var intrinsics: [Double], distortion: [Double], rms_px: Double
      var views: [View]
      struct View: Decodable { var markers: Int }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.views.count == 6 && report.views.allSatisfy { $0.markers >= 10 }, "\(report.views)")
    for (ours, truth) in zip(report.intrinsics, [610, 604, 323.5, 236.8]) {
      #expect(abs(ours - truth) <= 0.01 * truth, "\(report.intrinsics)")
    }
    // k1, k2, k3 trade off where views leave the image's corners bare: the lens is judged by
    // where it puts points, over the field the views cover (the image within 20% of its edges).
    let truth = LensDistortion.radialTangential(
      k1: -0.24, k2: 0.09, p1: 0.0008, p2: -0.0006, k3: 0, k4: 0, k5: 0, k6: 0)
    let ours = try LensDistortion(opencv: report.distortion)
    let k = report.intrinsics
    var worst = 0.0
    for u in stride(from: 130.0, through: 510, by: 38) {
      for v in stride(from: 100.0, through: 380, by: 28) {
        let ideal = SIMD2((u - 323.5) / 610, (v - 236.8) / 604)
        let a = truth.distort(ideal), b = ours.distort(ideal)
        let p = SIMD2(610 * a.x + 323.5, 604 * a.y + 236.8), q = SIMD2(k[0] * b.x + k[2], k[1] * b.y + k[3])
        worst = Swift.max(worst, (p - q).length)
      }
    }
    #expect(worst < 1 && report.rms_px < 0.5, "\(worst) px, \(report.distortion), RMS \(report.rms_px)")
  }

  @Test(
    "a bad board specification is a usage error naming its part",
    arguments: [
      ("grid:5:0.04:0.01:aruco_6x6_250", "size"), ("grid:5x4:-1:0.01:aruco_6x6_250", "marker length"),
      ("grid:5x4:0.04:0.01:nope", "dictionary"), ("charuco:5x7:0.03:0.04:aruco_6x6_250", "marker length"),
      ("hex:5x4:0.04:0.01:aruco_6x6_250", "kind"), ("grid:40x40:0.04:0.01:aruco_4x4_50", "dictionary"),
    ])
  func badBoard(spec: String, part: String) throws {
    let outcome = try ArsceneRunner.run(["calibrate", "--board", spec, "a.png", "b.png"])
    #expect(outcome.status == 64 && outcome.stderr.contains("--board: \(part): "), "\(outcome.stderr)")
  }

  @Test(
    "board ids and corners as OpenCV lays out grid and ChArUco boards",
    .enabled(if: CameraCalibrationOracle.opencv))
  func layoutsAgainstOpenCV() throws {
    let script = """
      import json, cv2
      d = cv2.aruco.Dictionary_get(cv2.aruco.DICT_6X6_250)
      out = {}
      for name, b in [("grid:5x4:0.04:0.01:aruco_6x6_250", cv2.aruco.GridBoard_create(5, 4, 0.04, 0.01, d)),
                      ("charuco:5x7:0.04:0.03:aruco_6x6_250", cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.03, d)),
                      ("charuco:4x4:0.04:0.025:aruco_6x6_250", cv2.aruco.CharucoBoard_create(4, 4, 0.04, 0.025, d))]:
          out[name] = {str(int(i)): [[float(c[0]), float(c[1])] for c in b.objPoints[k]] for k, i in enumerate(b.ids.ravel())}
      print(json.dumps(out))
      """
    let run = try PythonPeer.run(script, packages: "none")
    #expect(run.status == 0, "\(run.output)")
    let boards = try JSONDecoder().decode([String: [String: [[Double]]]].self, from: Data(run.output.utf8))
    for (spec, markers) in boards {
      let board = try MarkerBoard(specification: spec)
      #expect(board.markerCount == markers.count, "\(spec)")
      for (id, corners) in markers {
        let ours = try #require(board.markerCorners(id: Int(id)!))
        for (a, b) in zip(ours, corners) {
          #expect(abs(a.x - b[0]) < 1e-6 && abs(a.y - b[1]) < 1e-6, "\(spec) id \(id): \(ours) \(corners)")
        }
      }
    }
  }
}

/// Whether Debian's python3-opencv answers.
enum CameraCalibrationOracle {
  static let opencv: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0
}
