import ARHit
import ARImage
import ARImageIO
import ARMath
import ARMesh
import ARSnapshotTesting
import ARTapTesting
import ARTestSupport
import Foundation
import Testing

/// What the phone shows, as an image value: the same bytes on any thread count, and a change an
/// app team cares about (a point moved 2 mm, a label moved a pixel) past the default gates.
@Suite("PhoneView.snapshot")
struct PhoneSnapshotTests {
  static let model = "Scenes/models/hand-right.obj"
  static let points = "Scenes/models/hand-right-points.json"
  static let hand = try! TapScene(model: model, points: points)

  /// The hand with target `code` moved by `offset` metres (model frame).
  static func hand(moving code: String, by offset: SIMD3<Double>) throws -> TapScene {
    var set = try PointSet.load(path: points)
    let i = try #require(set.points.firstIndex { $0.code == code })
    for axis in 0..<3 { set.points[i].position[axis] += offset[axis] }
    return try TapScene(mesh: hand.mesh, points: set)
  }

  @Test("the hand from 30 cm, LI4 highlighted: the same bytes on 1, 2 and 3 threads, and the hand drawn")
  func threadCounts() throws {
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    var images: [RGBA8Image] = []
    for threads in 1...3 {
      var options = SnapshotOptions(highlighting: ["LI4"])
      options.threads = threads
      images.append(try phone.snapshot(options))
    }
    #expect(images[0] == images[1] && images[1] == images[2])
    let image = images[0]
    // A portrait 6.1-inch view, one pixel a point.
    #expect(image.width == 393 && image.height == 852)
    let background = SIMD4<UInt8>(38, 42, 48, 255)
    let drawn = image.pixels.filter { $0 != background }.count
    #expect(drawn > image.pixels.count / 10, "the hand covers \(drawn) pixels")
    // LI4 at the centre, highlighted: the highlight colour's blue dominates there.
    let centre = image.pixels[image.height / 2 * image.width + image.width / 2]
    #expect(centre.z > 200 && centre.x < 100, "\(centre)")
  }

  @Test("this optimised build draws the example's reference byte for byte, as its debug build recorded it")
  func debugAndReleaseAgree() throws {
    let path =
      "Examples/TapHitTests/Tests/AcupressureTapTests/__Snapshots__/HandSnapshotTests/li4-30cm-portrait.png"
    let reference = try PortablePNG.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))), path: path)
    // As HandSnapshotTests.li4From30Centimetres draws it.
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    let centre = try #require(try phone.screenPoint(of: "LI4"))
    for threads in [1, 3] {
      var options = SnapshotOptions(highlighting: ["LI4"], tap: centre)
      options.threads = threads
      let image = try phone.snapshot(options)
      let difference = SnapshotDifference(image, against: reference, gates: .exact)
      #expect(difference.largestChannelDifference == 0, "\(threads) threads: \(difference.summary)")
    }
  }

  @Test("a point moved 2 mm, or its label moved one point, fails the default gates; the same scene passes")
  func gatesCatchSmallMoves() throws {
    let options = SnapshotOptions(highlighting: ["LI4"])
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    let reference = try phone.snapshot(options)
    #expect(SnapshotDifference(try phone.snapshot(options), against: reference).matches)
    // 2 mm along the hand (model x), the phone where it was.
    let moved = try Self.hand(moving: "LI4", by: [0.002, 0, 0]).phone(
      worldFromCamera: phone.tester.camera.camera.worldFromCamera)
    let twoMillimetres = SnapshotDifference(try moved.snapshot(options), against: reference)
    #expect(!twoMillimetres.matches, "\(twoMillimetres.summary)")
    // One view point: the distance a point 30 cm away moves for one point on screen.
    let pixelsPerMetre = phone.tester.camera.camera.intrinsics.fx * phone.tester.camera.viewport.scale / 0.30
    let onePoint = try Self.hand(moving: "SI3", by: [0, 0, 1 / pixelsPerMetre]).phone(
      worldFromCamera: phone.tester.camera.camera.worldFromCamera)
    let base = try phone.snapshot(SnapshotOptions())
    let shifted = try onePoint.snapshot(SnapshotOptions())
    let difference = SnapshotDifference(shifted, against: base)
    #expect(!difference.matches, "\(difference.summary)")
    #expect(difference.largestChannelDifference > 50)
  }

  @Test("the camera frame shows behind the model, turned and filled into the portrait view")
  func cameraFrame() throws {
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    let size = phone.tester.camera.viewport.imageSize
    // The captured image's top half red, bottom half green (sensor orientation).
    let (width, height) = (Int(size.x), Int(size.y))
    let frame = RGBA8Image(
      width: width, height: height,
      pixels: (0..<(width * height)).map {
        $0 / width < height / 2 ? SIMD4(200, 0, 0, 255) : SIMD4(0, 200, 0, 255)
      })
    let image = try phone.snapshot(SnapshotOptions(cameraFrame: frame))
    // Where the hand is not drawn (the top corners), the frame's pixel the view maps there.
    for x in [5, image.width - 5] {
      let source = phone.tester.camera.viewport.imagePixel(forViewPoint: SIMD2(Double(x) + 0.5, 20.5))
      let expected: SIMD4<UInt8> = source.y < size.y / 2 ? SIMD4(200, 0, 0, 255) : SIMD4(0, 200, 0, 255)
      let got = SIMD4<Int>(truncatingIfNeeded: image.pixels[20 * image.width + x])
      let gap = got &- SIMD4<Int>(truncatingIfNeeded: expected)
      #expect(
        gap.x.magnitude <= 1 && gap.y.magnitude <= 1 && gap.z.magnitude <= 1,
        "x \(x): \(got), image pixel \(source)")
    }
    let corners = [image.pixels[20 * image.width + 5], image.pixels[20 * image.width + image.width - 5]]
    #expect(corners[0] != corners[1], "portrait: the frame's top and bottom halves on the screen's two sides")
    #expect {
      _ = try phone.snapshot(SnapshotOptions(cameraFrame: RGBA8Image(width: 4, height: 3, fill: .zero)))
    } throws: { "\($0)".contains("the camera frame is 4×3 pixels") }
  }

  @Test("a textured house: its PNG textures drawn as libpng decodes them, not its materials' colours")
  func textures() throws {
    var set = try PointSet.load(path: Self.points)
    set.points = [set.points[0]]
    set.points[0].position = [0, 6.5, 0]
    let house = try TapScene(
      mesh: try ModelAsset.load(path: "Scenes/models/zavist-house.obj", lenient: true).mesh, points: set)
    let phone = try house.phone(
      aimedAt: "LI4", from: 14, towards: SIMD3(0.6, 0.3, 0.74), orientation: .landscapeRight)
    var options = SnapshotOptions()
    options.drawsTargets = false
    let read = try phone.snapshot(options)
    // The same textures decoded by libpng and handed in: the same bytes.
    for path in house.mesh.texturePaths { options.textures[path] = try ImageFile.readRGBA8(path) }
    #expect(try phone.snapshot(options) == read)
    // Handed in as a flat red, they show: the textures are drawn, not the materials' colours.
    for path in house.mesh.texturePaths {
      options.textures[path] = RGBA8Image(width: 2, height: 2, fill: SIMD4(255, 0, 0, 255))
    }
    #expect(!SnapshotDifference(try phone.snapshot(options), against: read).matches)
  }

  @Test("a GLB's embedded PNG texture is drawn, as libpng decodes it")
  func embeddedTexture() throws {
    let asset = try ModelAsset.load(path: "Tests/Fixtures/gltf/BoxTextured.glb")
    #expect(!asset.embeddedImages.isEmpty)
    var set = try PointSet.load(path: Self.points)
    set.points = [set.points[0]]
    set.points[0].position = [0, 0, 0]
    var box = try TapScene(mesh: asset.mesh, points: set)
    let phone = try box.phone(
      aimedAt: "LI4", from: 2.5, towards: SIMD3(0.5, 0.6, 0.62), orientation: .portrait)
    var options = SnapshotOptions()
    options.drawsTargets = false
    let plain = try phone.snapshot(options)
    box.embeddedImages = asset.embeddedImages
    let textured = try box.phone(
      worldFromCamera: phone.tester.camera.camera.worldFromCamera, orientation: .portrait
    ).snapshot(options)
    #expect(!SnapshotDifference(textured, against: plain).matches)
    for (path, bytes) in asset.embeddedImages { options.textures[path] = try PNG.decodeRGBA8(bytes) }
    #expect(try phone.snapshot(options) == textured)
  }

  @Test(
    "a store records a missing reference and fails, then matches, then writes three images on a difference")
  func store() throws {
    let folder = try TemporaryFolder()
    let testFile = folder.path + "/HandSnapshotTests.swift"
    let environment = ["ARSCENE_SNAPSHOT_ARTIFACTS": folder.path + "/artifacts"]
    let store = try SnapshotStore(testFile: testFile, environment: environment)
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    let image = try phone.snapshot(SnapshotOptions(highlighting: ["LI4"]))
    guard case .recorded(let path) = try store.verify(image, named: "li4-30cm") else {
      Issue.record("not recorded")
      return
    }
    #expect(path == folder.path + "/__Snapshots__/HandSnapshotTests/li4-30cm.png")
    #expect(try store.verify(image, named: "li4-30cm").failure == nil)
    let other = try phone.snapshot(SnapshotOptions(highlighting: ["LI4"], tap: SIMD2(196, 426)))
    let verdict = try store.verify(other, named: "li4-30cm")
    guard case .differs(let difference, let reference, let actual, let differenceImage) = verdict else {
      Issue.record("\(verdict)")
      return
    }
    #expect(verdict.failure?.contains("pixels") == true && !difference.matches)
    for file in [reference, actual, differenceImage] {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
      #expect(try PortablePNG.decode(bytes, path: file).width == 393)
    }
    #expect(
      try PortablePNG.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: actual))), path: actual) == other)
    // Never: a missing reference fails without a file written; a typo in the mode is an error.
    let never = try SnapshotStore(testFile: testFile, environment: ["ARSCENE_SNAPSHOTS": "never"])
    guard case .missing = try never.verify(image, named: "other") else {
      Issue.record("recorded in never mode")
      return
    }
    #expect(
      !FileManager.default.fileExists(atPath: folder.path + "/__Snapshots__/HandSnapshotTests/other.png"))
    // A name is a file name in the store's folder, never a path out of it.
    for name in ["../escape", "", ".hidden", "a/b"] {
      #expect(throws: SnapshotError.self) { _ = try store.verify(image, named: name) }
    }
    #expect(throws: SnapshotStore.ConfigurationError.self) {
      _ = try SnapshotStore(testFile: testFile, environment: ["ARSCENE_SNAPSHOTS": "recrod"])
    }
  }
}
