import ARImage
import ARMath
import ARMesh
import ARRender
import ARSnapshotTesting
import ARTapTesting
import Foundation
import LitOracle
import Testing

/// Snapshots of what the phone shows against an independent renderer of the same view: Mesa's
/// llvmpipe drawing the snapshot's own draw calls with shaders that light as ARScene's lit mode
/// does. Where the renderers agree the default gates pass; a wrong material fails them.
@Suite("Snapshots against llvmpipe")
struct SnapshotLlvmpipeTests {
  static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../Scenes/models").standardized.path
  static let hand = try! TapScene(
    model: models + "/hand-right.obj", points: models + "/hand-right-points.json")

  /// The model alone (no dots, labels or tap, which only ARSnapshotTesting draws).
  static var modelOnly: SnapshotOptions {
    var options = SnapshotOptions()
    options.drawsTargets = false
    return options
  }

  /// llvmpipe's drawing of `frame`, with each draw's materials changed by `change`.
  static func llvmpipe(
    _ frame: SnapshotFrame, changing change: (inout Material) -> Void = { _ in }
  ) throws -> RGBA8Image? {
    guard let mesa = MesaLit(width: frame.camera.intrinsics.width, height: frame.camera.intrinsics.height)
    else {
      return nil
    }
    let draws = try frame.draws.map { draw in
      var mesh = draw.mesh
      for m in mesh.materials.indices { change(&mesh.materials[m]) }
      return try DrawCall(mesh: mesh, worldFromModel: draw.worldFromModel, cullBackFaces: draw.cullBackFaces)
    }
    return try mesa.render(
      draws, camera: frame.camera, lighting: frame.lighting, background: frame.background,
      backgroundColor: frame.backgroundColor)
  }

  @Test(
    "the hand from 30 cm, and beside its marker card in landscape: within 5/255 on all but 0.01% of the pixels"
  )
  func agree() throws {
    let card = try ModelAsset.load(path: Self.models + "/marker-card.obj", lenient: true).mesh
    var beside = Self.modelOnly
    beside.scenery = [
      SnapshotOptions.Scenery(
        mesh: card,
        worldFromModel: RigidTransform(
          rotation: Quaternion(angle: .degrees(-90), axis: SIMD3(1, 0, 0)),
          translation: SIMD3(0.1, 0.001, -0.03)))
    ]
    let views: [(PhoneView, SnapshotOptions)] = [
      (try Self.hand.phone(aimedAt: "LI4", from: 0.30), Self.modelOnly),
      (
        try Self.hand.phone(
          aimedAt: "LI4", from: 0.40, towards: SIMD3(0.2, 0.8, 0.56), orientation: .landscapeRight), beside
      ),
    ]
    for (phone, options) in views {
      let ours = try phone.snapshot(options)
      guard let theirs = try Self.llvmpipe(try phone.snapshotFrame(options)) else {
        Issue.record("llvmpipe (EGL, GLES 3) is not available: Tools/bootstrap --tests installs it")
        return
      }
      let difference = SnapshotDifference(ours, against: theirs)
      #expect(difference.matches, "\(difference.summary)")
      // Not an empty agreement: the model covers a good part of the view.
      #expect(ours.pixels.filter { $0 != ours.pixels[0] }.count > ours.pixels.count / 20)
    }
  }

  @Test("the hand drawn by llvmpipe with another skin colour fails the default gates")
  func wrongMaterial() throws {
    let phone = try Self.hand.phone(aimedAt: "LI4", from: 0.30)
    let ours = try phone.snapshot(Self.modelOnly)
    guard
      let theirs = try Self.llvmpipe(
        try phone.snapshotFrame(Self.modelOnly), changing: { $0.diffuse = $0.diffuse * SIMD3(1, 0.8, 0.8) })
    else {
      Issue.record("llvmpipe (EGL, GLES 3) is not available: Tools/bootstrap --tests installs it")
      return
    }
    let difference = SnapshotDifference(ours, against: theirs)
    #expect(!difference.matches, "\(difference.summary)")
    #expect(difference.fractionDifferent > 0.05)
  }
}
