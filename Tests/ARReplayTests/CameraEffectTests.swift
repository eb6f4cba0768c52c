import ARImage
import ARMath
import ARReplay
import ARScene
import ARSceneRendering
import ARTestSupport
import Foundation
import Testing

/// What a real camera does to its image, done to the virtual content too: motion blur from the
/// camera's motion between frames, and the camera's grain.
@Suite("Camera effects on the content")
struct CameraEffectTests {
  static let intrinsics = CameraIntrinsics<Double>(fx: 300, fy: 300, cx: 100, cy: 75, width: 200, height: 150)

  /// A 20×20 px opaque square in the middle of a transparent overlay, 2 m away.
  static let square: (RGBA8Image, DepthImage) = {
    var image = RGBA8Image(width: 200, height: 150, fill: .zero)
    var depth = DepthImage(width: 200, height: 150, fill: .infinity)
    for y in 65..<85 {
      for x in 90..<110 {
        image.pixels[y * 200 + x] = SIMD4(200, 60, 20, 255)
        depth.pixels[y * 200 + x] = 2
      }
    }
    return (image, depth)
  }()

  /// This frame's camera, and the previous frame's, which looked 4° further left (about +y):
  /// the content moved `motion` ≈ 21 px left across the image since.
  static let turning: (now: PinholeCamera<Double>, previous: PinholeCamera<Double>, motion: Double) = {
    let turn = RigidTransform<Double>(rotation: Quaternion(angle: .degrees(4), axis: SIMD3(0, 1, 0)))
    return (
      PinholeCamera(intrinsics: intrinsics, worldFromCamera: .identity),
      PinholeCamera(intrinsics: intrinsics, worldFromCamera: turn), 300 * Foundation.tan(4.0 * .pi / 180)
    )
  }()

  @Test(
    "a camera turning between frames smears the content along the turn by the shutter's share; a still one leaves it"
  )
  func motionBlurAlongTheTurn() {
    let (overlay, depth) = Self.square
    let (now, previous, motion) = Self.turning
    let still = MotionBlur(shutter: 0.5).apply(to: overlay, depth: depth, camera: now, previous: now)
    #expect(still.image == overlay)
    let (blurred, blurredDepth) = MotionBlur(shutter: 0.5, samples: 16).apply(
      to: overlay, depth: depth, camera: now, previous: previous)
    // Coverage spreads over the square's width plus half the motion, centred where it was;
    // its total is kept, rows above and below untouched.
    let row = (0..<200).map { Double(blurred[$0, 75].w) / 255 }
    let covered = row.indices.filter { row[$0] > 0.02 }
    let width = Double(covered.last! - covered.first! + 1)
    #expect(abs(width - (20 + 0.5 * motion)) <= 2, "streak \(width) px for \(20 + 0.5 * motion)")
    #expect(abs(row.reduce(0, +) - 20) < 0.5)
    #expect((0..<200).allSatisfy { blurred[$0, 60].w == 0 && blurred[$0, 90].w == 0 })
    // The colour is the square's (alpha-weighted, not darkened towards transparent black).
    let edge = covered.first! + 1
    #expect(blurred[edge, 75].x == 200 && blurred[edge, 75].w < 255)
    #expect(blurredDepth[edge, 75] == 2 && blurredDepth[10, 75] == .infinity)
  }

  @Test(
    "the timestamp at the exposure's start, middle or end: the streak ahead of, around or behind the square")
  func shutterPhase() {
    let (overlay, depth) = Self.square
    let (now, previous, motion) = Self.turning
    // The coverage's centre along row 75, against the square's (x = 100).
    func centre(_ phase: Double) -> Double {
      let blurred = MotionBlur(shutter: 0.5, samples: 16, phase: phase).apply(
        to: overlay, depth: depth, camera: now, previous: previous
      ).image
      let row = (0..<200).map { Double(blurred[$0, 75].w) / 255 }
      return zip(row.indices, row).map { (Double($0) + 0.5) * $1 }.reduce(0, +) / row.reduce(0, +)
    }
    // The previous frame looked left, so the content has moved left (−x) across the image
    // since: before the timestamp it was to the right. Middle: centred; the timestamp at the
    // exposure's end: the streak lies right, by half the open shutter's motion; at its start,
    // left as far.
    #expect(abs(centre(0.5) - 100) < 0.5)
    #expect(abs(centre(1) - (100 + 0.25 * motion)) < 1, "\(centre(1))")
    #expect(abs(centre(0) - (100 - 0.25 * motion)) < 1, "\(centre(0))")
  }

  /// A flat grey image with Gaussian noise of `sigma` code values per channel, seeded.
  static func noisy(_ level: Double, sigma: Double, seed: UInt64) -> RGBA8Image {
    var random = SplitMix64(seed: seed)
    let pixels = (0..<(320 * 240)).map { _ -> SIMD4<UInt8> in
      func channel() -> UInt8 { UInt8(min(255, max(0, (level + sigma * random.gaussian()).rounded()))) }
      return SIMD4(channel(), channel(), channel(), 255)
    }
    return RGBA8Image(width: 320, height: 240, pixels: pixels)
  }

  @Test("the camera's noise is measured to a few percent, and smooth shading reads as none")
  func measuresNoise() {
    for sigma in [2.0, 5.0] {
      let noise = CameraGrain.measure(Self.noisy(120, sigma: sigma, seed: 3))
      #expect(
        abs(noise[3].x / sigma - 1) < 0.05 && abs(noise[3].z / sigma - 1) < 0.05,
        "\(noise[3]) for σ = \(sigma)")
    }
    // A gradient (a lit surface) has no noise: the estimator's mask ignores linear shading.
    let pixels = (0..<(320 * 240)).map { (i: Int) -> SIMD4<UInt8> in
      let (x, y) = (i % 320, i / 320)
      return SIMD4(UInt8(x / 2), UInt8(y), 90, 255)
    }
    let gradient = RGBA8Image(width: 320, height: 240, pixels: pixels)
    #expect(CameraGrain.measure(gradient).allSatisfy { $0.max() < 0.3 })
  }

  @Test("grain gives covered pixels the camera's noise, weighted by coverage; the same seed the same bytes")
  func grainMatches() {
    let camera = Self.noisy(120, sigma: 4, seed: 5)
    let noise = CameraGrain.measure(camera)
    // Content covering the left half, flat grey: after grain its noise is the camera's.
    var overlay = RGBA8Image(width: 320, height: 240, fill: .zero)
    var composite = camera
    for y in 0..<240 {
      for x in 0..<160 {
        overlay.pixels[y * 320 + x] = SIMD4(120, 120, 120, 255)
        composite.pixels[y * 320 + x] = SIMD4(120, 120, 120, 255)
      }
    }
    var grained = composite
    CameraGrain(seed: 1).apply(noise: noise, to: &grained, overlay: overlay, frame: 7)
    let values = (0..<240).flatMap { y in (0..<160).map { Double(grained[$0, y].x) } }
    let mean = values.reduce(0, +) / Double(values.count)
    let sd = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    #expect(abs(sd / 4 - 1) < 0.05 && abs(mean - 120) < 0.1, "σ \(sd), mean \(mean)")
    // The camera's half is untouched; the same seed and frame give the same bytes, another frame others.
    #expect((0..<240).allSatisfy { y in grained[200, y] == camera[200, y] })
    var again = composite
    CameraGrain(seed: 1).apply(noise: noise, to: &again, overlay: overlay, frame: 7)
    #expect(again == grained)
    var next = composite
    CameraGrain(seed: 1).apply(noise: noise, to: &next, overlay: overlay, frame: 8)
    #expect(next != grained)
  }
}
