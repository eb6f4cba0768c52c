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
  /// half a millimetre a pixel, as a textured quad (see ``texturedBoard(_:in:name:)``).
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
    return try texturedBoard(image, in: folder, name: "board")
  }

  /// A ChArUco board of 5 × `rows` 4 cm squares and 3 cm aruco_6x6_250 markers with a 2 cm
  /// white margin, at half a millimetre a pixel, as a textured quad: OpenCV's current pattern
  /// (top-left square black), or its legacy one, whose top-left square is white when the rows
  /// are even.
  static func charucoModel(in folder: TemporaryFolder, rows: Int = 7, legacy: Bool = false) throws -> String {
    let dictionary = try #require(MarkerDictionary.named("aruco_6x6_250"))
    let board = try MarkerBoard(
      specification: "charuco:5x\(rows):0.04:0.03:aruco_6x6_250" + (legacy ? ":legacy" : ""))
    var image = RGBA8Image(width: 480, height: 80 * rows + 80, fill: SIMD4(255, 255, 255, 255))
    let blackParity = legacy && rows % 2 == 0 ? 1 : 0
    for row in 0..<rows {
      for column in 0..<5 where (row + column) % 2 == blackParity {
        for y in 0..<80 {
          for x in 0..<80 { image[40 + column * 80 + x, 40 + row * 80 + y] = SIMD4(0, 0, 0, 255) }
        }
      }
    }
    for id in 0..<board.markerCount {
      let corner = try #require(board.markerCorners(id: id))[0] / 0.0005
      let marker = try dictionary.image(id: id, pixels: 60, quietZone: 0)
      for y in 0..<60 {
        for x in 0..<60 {
          image[40 + Int(corner.x.rounded()) + x, 40 + Int(corner.y.rounded()) + y] =
            marker[x * marker.width / 60, y * marker.height / 60]
        }
      }
    }
    return try texturedBoard(image, in: folder, name: "charuco")
  }

  /// `image` (half a millimetre a pixel, a 2 cm margin about the board) as `NAME.png` on a
  /// textured quad `NAME.obj` facing +z, the board's own origin (its first marker's or square's
  /// top-left corner, 2 cm inside the image's) at the world's (0, top, 0), `top` the board's
  /// height without the margins.
  static func texturedBoard(_ image: RGBA8Image, in folder: TemporaryFolder, name: String) throws -> String {
    try ImageFile.writePNG(image, to: folder.path + "/\(name).png")
    _ = try folder.write("newmtl board\nKd 1 1 1\nmap_Kd \(name).png\n", to: "\(name).mtl")
    let (w, h) = (Double(image.width) * 0.0005, Double(image.height) * 0.0005)
    return try folder.write(
      """
      mtllib \(name).mtl
      v -0.02 -0.02 0
      v \(w - 0.02) -0.02 0
      v \(w - 0.02) \(h - 0.02) 0
      v -0.02 \(h - 0.02) 0
      vt 0 0
      vt 1 0
      vt 1 1
      vt 0 1
      usemtl board
      f 1/1 2/2 3/3 4/4
      """, to: "\(name).obj")
  }

  /// The lens the rendered views are taken through: a webcam's.
  static let webcam = LensDistortion.radialTangential(
    k1: -0.24, k2: 0.09, p1: 0.0008, p2: -0.0006, k3: 0, k4: 0, k5: 0, k6: 0)

  @Test(
    "six rendered views through a webcam's lens: the intrinsics within 1%, every board point in view within 0.5 px of the true camera's",
    arguments: [
      "grid:5x4:0.04:0.01:aruco_6x6_250", "charuco:5x7:0.04:0.03:aruco_6x6_250",
      "charuco:5x6:0.04:0.03:aruco_6x6_250:legacy",
    ])
  func rendered(spec: String) throws {
    let folder = try TemporaryFolder()
    let board = try MarkerBoard(specification: spec)
    let (charuco, rows): (Bool, Int)
    if case .charuco(_, let r, _, _) = board.layout {
      (charuco, rows) = (true, r)
    } else {
      (charuco, rows) = (false, 0)
    }
    let model =
      try charuco
      ? Self.charucoModel(in: folder, rows: rows, legacy: board.legacyPattern)
      : Self.boardModel(in: folder)
    // About the board's centre, 36-42 cm away.
    let centre = charuco ? SIMD3(0.10, 0.02 * Double(rows), 0.0) : SIMD3(0.12, 0.095, 0.0)
    let eyes = [
      SIMD3(0.0, 0.0, 0.42), SIMD3(0.18, 0.045, 0.38), SIMD3(-0.17, -0.075, 0.40), SIMD3(0.06, -0.195, 0.37),
      SIMD3(-0.2, 0.125, 0.39), SIMD3(0.13, 0.205, 0.36),
    ].map { centre + $0 }
    let target = [centre.x, centre.y, 0]
    var images: [String] = []
    for (i, point) in eyes.enumerated() {
      let eye = [point.x, point.y, point.z]
      let scene = try folder.write(
        """
        {"output": {"width": 640, "height": 480}, "background": {"color": [0.3, 0.3, 0.3]},
         "camera": {"intrinsics": {"fx": 610, "fy": 604, "cx": 323.5, "cy": 236.8},
                    "look_at": {"eye": \(eye), "target": \(target)},
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
      ["calibrate", "--board", spec] + images)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      var intrinsics: [Double], distortion: [Double], rms_px: Double
      var views: [View]
      struct View: Decodable { var markers: Int, rotation_xyzw: [Double], translation: [Double] }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.views.count == 6 && report.views.allSatisfy { $0.markers >= 10 }, "\(report.views)")
    for (ours, truth) in zip(report.intrinsics, [610, 604, 323.5, 236.8]) {
      #expect(abs(ours - truth) <= 0.01 * truth, "\(report.intrinsics)")
    }
    // k1, k2, k3 trade off where views leave the image's corners bare, and the principal point
    // with the views' rotations: the calibration is judged by whether it, with the poses it
    // found, puts every board point in view where the true camera did.
    let ours = try LensDistortion(opencv: report.distortion)
    let k = report.intrinsics
    let points =
      charuco ? board.chessboardCorners : (0..<board.markerCount).flatMap { board.markerCorners(id: $0)! }
    let top = charuco ? 0.04 * Double(rows) : 0.19
    var worst = 0.0
    for (eye, view) in zip(eyes, report.views) {
      let back = (eye - centre) / (eye - centre).length
      let right = SIMD3<Double>(0, 1, 0).cross(back) / SIMD3<Double>(0, 1, 0).cross(back).length
      let up = back.cross(right)
      let rotation = Quaternion(
        vector: SIMD4(
          view.rotation_xyzw[0], view.rotation_xyzw[1], view.rotation_xyzw[2], view.rotation_xyzw[3]))
      let translation = SIMD3(view.translation[0], view.translation[1], view.translation[2])
      for b in points {
        let d = SIMD3(b.x, top - b.y, 0) - eye
        let a = Self.webcam.distort(SIMD2(d.dot(right), -d.dot(up)) / -d.dot(back))
        let p = SIMD2(610 * a.x + 323.5, 604 * a.y + 236.8)
        guard p.x > 0, p.y > 0, p.x < 640, p.y < 480 else { continue }
        let c = rotation.act(SIMD3(b.x, b.y, 0)) + translation
        let o = ours.distort(SIMD2(c.x, c.y) / c.z)
        worst = Swift.max(worst, (p - SIMD2(k[0] * o.x + k[2], k[1] * o.y + k[3])).length)
      }
    }
    #expect(worst < 0.5 && report.rms_px < 0.5, "\(worst) px, \(report.distortion), RMS \(report.rms_px)")
  }

  @Test(
    "ChArUco corners in a rendered photo: within 0.2 px of the truth, at least as close as OpenCV's interpolateCornersCharuco",
    arguments: [[0.10, 0.14, 0.45], [0.25, 0.05, 0.40], [-0.06, 0.20, 0.42]])
  func charucoCorners(eye: [Double]) throws {
    let folder = try TemporaryFolder()
    let model = try Self.charucoModel(in: folder)
    let target = SIMD3(0.1, 0.14, 0.0)
    let scene = try folder.write(
      """
      {"output": {"width": 640, "height": 480}, "background": {"color": [0.3, 0.3, 0.3]},
       "camera": {"intrinsics": {"fx": 600, "fy": 600, "cx": 320, "cy": 240},
                  "look_at": {"eye": \(eye), "target": [\(target.x), \(target.y), 0]}},
       "lights": {"ambient": [1, 1, 1], "directional": []},
       "objects": [{"name": "board", "model": "\(model)"}]}
      """, to: "view.json")
    let path = folder.path + "/view.png"
    let run = try ArsceneRunner.run(["render", scene, "-o", path, "--samples", "4"])
    #expect(run.status == 0, "\(run.stderr)")
    let board = try MarkerBoard(specification: "charuco:5x7:0.04:0.03:aruco_6x6_250")
    let image = try ImageFile.readRGBA8(path)
    let corners = board.charucoCorners(
      in: image, markers: MarkerDetector(dictionary: board.dictionary).detect(image))
    // The truth: each corner's world point (board y down from y = 0.28) through the camera.
    let from = SIMD3(eye[0], eye[1], eye[2])
    let back = (from - target) / (from - target).length
    let right = SIMD3<Double>(0, 1, 0).cross(back) / SIMD3<Double>(0, 1, 0).cross(back).length
    let up = back.cross(right)
    var worst = 0.0
    for corner in corners {
      let b = board.chessboardCorners[corner.id]
      let d = SIMD3(b.x, 0.28 - b.y, 0) - from
      let c = SIMD3(d.dot(right), d.dot(up), d.dot(back))
      let truth = SIMD2(320 + 600 * c.x / -c.z, 240 - 600 * c.y / -c.z)
      worst = Swift.max(worst, (corner.pixel - truth).length)
    }
    #expect(corners.count >= 20 && worst < 0.2, "\(corners.count) corners, worst \(worst) px")
    // marker detect --board: the same corners, and the board posed from all of them.
    let detect = try ArsceneRunner.run([
      "marker", "detect", path, "--board", "charuco:5x7:0.04:0.03:aruco_6x6_250", "--intrinsics",
      "600,600,320,240",
    ])
    #expect(detect.status == 0, "\(detect.stderr)")
    struct Detected: Decodable {
      var board: Board
      struct Board: Decodable {
        var charuco_corners: [Corner]
        var pose: [Pose]
        struct Corner: Decodable { var id: Int }
        struct Pose: Decodable { var translation: [Double] }
      }
    }
    let detected = try JSONDecoder().decode(Detected.self, from: Data(detect.stdout.utf8))
    #expect(detected.board.charuco_corners.map(\.id) == corners.map(\.id))
    let origin = SIMD3(0, 0.28, 0) - from
    let expected = SIMD3(origin.dot(right), -origin.dot(up), -origin.dot(back))
    let t = try #require(detected.board.pose.first).translation
    #expect((SIMD3(t[0], t[1], t[2]) - expected).length < 0.002, "\(t) against \(expected)")
    guard CameraCalibrationOracle.opencv else { return }
    let script = """
      import json, sys, cv2
      d = cv2.aruco.Dictionary_get(cv2.aruco.DICT_6X6_250)
      b = cv2.aruco.CharucoBoard_create(5, 7, 0.04, 0.03, d)
      g = cv2.cvtColor(cv2.imread(sys.argv[1]), cv2.COLOR_BGR2GRAY)
      mc, mi, _ = cv2.aruco.detectMarkers(g, d)
      n, cc, ci = cv2.aruco.interpolateCornersCharuco(mc, mi, g, b)
      print(json.dumps({str(int(i)): [float(p[0][0]), float(p[0][1])] for p, i in zip(cc, ci.ravel())} if n else {}))
      """
    // OpenCV 4.6's ChArUco corners already put the image's top-left corner at (0, 0), as ARScene
    // does (opencv_contrib#3024; its later CharucoDetector added half a pixel, opencv#25539).
    let peer = try PythonPeer.run(script, arguments: [path], packages: "none")
    #expect(peer.status == 0, "\(peer.output)")
    let theirs = try JSONDecoder().decode([String: [Double]].self, from: Data(peer.output.utf8))
    let ours = Dictionary(uniqueKeysWithValues: corners.map { ("\($0.id)", $0.pixel) })
    #expect(
      Set(theirs.keys).isSubset(of: Set(ours.keys)),
      "OpenCV \(theirs.keys.sorted()) ours \(ours.keys.sorted())")
    // As accurate as OpenCV's on the same image: the worst error against the truth.
    var theirWorst = 0.0
    for (id, p) in theirs {
      let b = board.chessboardCorners[Int(id)!]
      let d = SIMD3(b.x, 0.28 - b.y, 0) - from
      let c = SIMD3(d.dot(right), d.dot(up), d.dot(back))
      let truth = SIMD2(320 + 600 * c.x / -c.z, 240 - 600 * c.y / -c.z)
      theirWorst = Swift.max(theirWorst, (SIMD2(p[0], p[1]) - truth).length)
    }
    #expect(worst <= theirWorst + 0.02, "ours \(worst) px, OpenCV's \(theirWorst) px")
  }

  @Test(
    "ChArUco diamonds in perspective: the ids and corners OpenCV's detectCharucoDiamond finds, within 0.15 px",
    .enabled(if: CameraCalibrationOracle.opencv))
  func diamonds() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/diamonds.png"
    // Two diamonds OpenCV draws (squares 1.5 times their markers), each warped in perspective
    // onto a grey page, blurred slightly; then OpenCV's own detection.
    let script = """
      import json, sys, cv2, numpy as np
      d = cv2.aruco.Dictionary_get(cv2.aruco.DICT_6X6_250)
      page = np.full((720, 960), 235, np.uint8)
      for ids, quad in [((45, 68, 28, 74), [[90, 120], [420, 150], [400, 470], [70, 430]]),
                        ((3, 9, 17, 101), [[520, 200], [880, 160], [900, 560], [540, 520]])]:
          tile = cv2.aruco.drawCharucoDiamond(d, np.array(ids), 120, 80)
          n = tile.shape[0]
          h = cv2.getPerspectiveTransform(np.float32([[0, 0], [n, 0], [n, n], [0, n]]), np.float32(quad))
          warped = cv2.warpPerspective(tile, h, (960, 720), flags=cv2.INTER_LINEAR, borderValue=255)
          mask = cv2.warpPerspective(np.full_like(tile, 255), h, (960, 720), flags=cv2.INTER_LINEAR)
          page = np.where(mask > 128, warped, page).astype(np.uint8)
      page = cv2.GaussianBlur(page, (0, 0), 0.7)
      cv2.imwrite(sys.argv[1], page)
      mc, mi, _ = cv2.aruco.detectMarkers(page, d)
      dc, di = cv2.aruco.detectCharucoDiamond(page, mc, mi, 1.5)
      print(json.dumps([{"ids": [int(v) for v in i.ravel()], "corners": c.reshape(-1, 2).tolist()} for c, i in zip(dc, di)]))
      """
    let run = try PythonPeer.run(script, arguments: [path], packages: "none")
    try #require(run.status == 0, "\(run.output)")
    struct Diamond: Decodable { var ids: [Int]; var corners: [[Double]] }
    let theirs = try JSONDecoder().decode([Diamond].self, from: Data(run.output.utf8))
    let outcome = try ArsceneRunner.run([
      "marker", "detect", path, "--dictionary", "aruco_6x6_250", "--diamond", "1.5",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable { var diamonds: [Diamond] }
    let ours = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8)).diamonds
    #expect(theirs.count == 2 && ours.count == 2, "OpenCV \(theirs.map(\.ids)), ours \(ours.map(\.ids))")
    for diamond in theirs {
      let match = try #require(ours.first { $0.ids == diamond.ids }, "\(diamond.ids) not found")
      for (a, b) in zip(match.corners, diamond.corners) {
        // OpenCV's diamond corners put the image's corner at (0, 0), as ARScene does.
        #expect(
          (SIMD2(a[0], a[1]) - SIMD2(b[0], b[1])).length < 0.15, "\(diamond.ids): ours \(a), OpenCV \(b)")
      }
    }
  }

  @Test(
    "OpenCV's real chessboard photographs through the command line: all 13 views, the published camera within 1.5%, a view without the board skipped"
  )
  func realChessboard() throws {
    let folder = try TemporaryFolder()
    let blank = folder.path + "/blank.png"
    try ImageFile.writePNG(RGBA8Image(width: 640, height: 480, fill: SIMD4(200, 200, 200, 255)), to: blank)
    let views = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"].map {
      Fixtures.path("markers/opencv_chessboard_photos/left\($0).jpg")
    }
    let outcome = try ArsceneRunner.run(["calibrate", "--board", "chessboard:9x6:0.025"] + views + [blank])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      var intrinsics: [Double], rms_px: Double, views: [View], skipped: [Skipped]
      struct View: Decodable { var points: Int }
      struct Skipped: Decodable { var image: String, reason: String }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.views.count == 13 && report.views.allSatisfy { $0.points == 54 })
    #expect(
      report.skipped.count == 1 && report.skipped[0].reason.contains("9×6 inner corners"), "\(report.skipped)"
    )
    for (ours, published) in zip(report.intrinsics, [535.9157, 535.9157, 342.7832, 236.0708]) {
      #expect(abs(ours - published) <= 0.015 * published, "\(report.intrinsics)")
    }
  }

  @Test(
    "both cameras of OpenCV's real stereo rig: every corner of the 13 views, the camera within 0.2% of OpenCV's calibrateCamera on cornerSubPix corners whose window fits the squares",
    arguments: [
      ("left", [533.002, 533.124, 342.809, 234.429]), ("right", [537.521, 537.025, 327.758, 249.523]),
    ])
  func stereoRigCameras(side: String, opencv: [Double]) throws {
    let views = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "11", "12", "13", "14"].map {
      Fixtures.path("markers/opencv_chessboard_photos/\(side)\($0).jpg")
    }
    let outcome = try ArsceneRunner.run(["calibrate", "--board", "chessboard:9x6:0.025"] + views)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      var intrinsics: [Double], rms_px: Double, views: [View]
      struct View: Decodable { var points: Int }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.views.count == 13 && report.views.allSatisfy { $0.points == 54 })
    // Focal lengths within 0.2%, the principal point within 2 px, a fit as close (OpenCV
    // 0.183 and 0.188 px; see SOURCE.txt for the larger window's strays).
    for k in 0..<2 {
      #expect(abs(report.intrinsics[k] - opencv[k]) <= 0.002 * opencv[k], "\(report.intrinsics)")
    }
    for k in 2..<4 { #expect(abs(report.intrinsics[k] - opencv[k]) <= 2, "\(report.intrinsics)") }
    #expect(report.rms_px < 0.2)
  }

  @Test(
    "a GoPro's wide-angle lens (k1 -0.24): 9 views and 3 of them give OpenCV's camera within 0.1%, its distortion and its fit",
    arguments: [
      (
        ["0032", "0035", "0038", "0042", "0045", "0051", "0057", "0063", "0070"],
        [562.8279, 563.5835, 651.4839, 501.5377], 0.4176
      ),
      (["0038", "0045", "0057"], [563.9, 564.4, .nan, .nan], 0.483),
    ])
  func wideAngleLens(views: [String], opencv: [Double], rms: Double) throws {
    let files = views.map { Fixtures.path("markers/gopro_chessboard_photos/GOPR\($0).jpg") }
    let outcome = try ArsceneRunner.run(["calibrate", "--board", "chessboard:8x6:1"] + files)
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable {
      var intrinsics: [Double], distortion: [Double], rms_px: Double, views: [View]
      struct View: Decodable { var points: Int }
    }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.views.count == views.count && report.views.allSatisfy { $0.points == 48 })
    // OpenCV 4.6's calibrateCamera on findChessboardCorners and cornerSubPix (SOURCE.txt).
    for k in 0..<2 {
      #expect(abs(report.intrinsics[k] - opencv[k]) <= 0.001 * opencv[k], "\(report.intrinsics)")
    }
    for k in 2..<4 where opencv[k].isFinite {
      #expect(abs(report.intrinsics[k] - opencv[k]) <= 1, "\(report.intrinsics)")
    }
    #expect(abs(report.distortion[0] - -0.244) < 0.01, "\(report.distortion)")
    #expect(report.rms_px <= rms + 0.01, "\(report.rms_px)")
  }

  @Test("photographs of two sizes, or too few showing the board, are bad input naming why")
  func badPhotographs() throws {
    let folder = try TemporaryFolder()
    let (small, large) = (folder.path + "/small.png", folder.path + "/large.png")
    try ImageFile.writePNG(RGBA8Image(width: 64, height: 48, fill: SIMD4(200, 200, 200, 255)), to: small)
    try ImageFile.writePNG(RGBA8Image(width: 80, height: 60, fill: SIMD4(200, 200, 200, 255)), to: large)
    let sizes = try ArsceneRunner.run([
      "calibrate", "--board", "grid:5x4:0.04:0.01:aruco_6x6_250", small, large,
    ])
    #expect(
      sizes.status == 2 && sizes.stderr.contains("large.png: 80×60") && sizes.stderr.contains("64×48"),
      "\(sizes.stderr)")
    let blank = try ArsceneRunner.run([
      "calibrate", "--board", "grid:5x4:0.04:0.01:aruco_6x6_250", small, small,
    ])
    #expect(blank.status == 2 && blank.stderr.contains("at least two views"), "\(blank.stderr)")
  }

  @Test(
    "a bad board specification is a usage error naming its part",
    arguments: [
      ("grid:5:0.04:0.01:aruco_6x6_250", "size"), ("grid:5x4:-1:0.01:aruco_6x6_250", "marker length"),
      ("grid:5x4:0.04:0.01:nope", "dictionary"), ("charuco:5x7:0.03:0.04:aruco_6x6_250", "marker length"),
      ("hex:5x4:0.04:0.01:aruco_6x6_250", "kind"), ("grid:40x40:0.04:0.01:aruco_4x4_50", "dictionary"),
      ("chessboard:1x6:0.025", "size"), ("chessboard:9x6:nan", "square length"), ("chessboard:9x6", "kind"),
      ("charuco:5x6:0.04:0.03:aruco_6x6_250:old", "pattern"),
      ("grid:5x4:0.04:0.01:aruco_6x6_250:legacy", "kind"),
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
