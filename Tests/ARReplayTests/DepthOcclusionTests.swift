import ARImage
import ARMath
import ARReplay
import ARScene
import ARSceneRendering
import Testing

@Suite("Depth occlusion")
struct DepthOcclusionTests {
  @Test(
    "a real surface nearer than the content hides it, an equal one half, a farther or unmeasured one not at all"
  )
  func hidesWhereNearer() {
    let red = SIMD4<UInt8>(255, 0, 0, 255), camera = SIMD4<UInt8>(0, 0, 255, 255)
    let overlay = RGBA8Image(width: 5, height: 1, pixels: Array(repeating: red, count: 5))
    let depth = DepthImage(width: 5, height: 1, pixels: [2, 2, 2, 2, 2])
    let measured = RGBA16Image(
      width: 5, height: 1, pixels: [1000, 2000, 3000, 0, 1000].map { SIMD4<UInt16>($0, $0, $0, 65535) })
    // The last measurement has low confidence: not trusted at medium.
    let confidence = RGBA8Image(
      width: 5, height: 1, pixels: [2, 2, 2, 2, 0].map { SIMD4<UInt8>($0, $0, $0, 255) })
    let out = DepthOcclusion(minimumConfidence: 1).composite(
      overlay: overlay, depth: depth,
      over: RGBA8Image(width: 5, height: 1, pixels: Array(repeating: camera, count: 5)),
      measured: measured, confidence: confidence)
    #expect(out[0, 0] == camera)  // the wall 1 m away hides the content 2 m away
    // A tie: half and half in linear light, sRGB-encoded.
    let half = SRGB.encode8(0.5)
    #expect(out[1, 0] == SIMD4(half, 0, half, 255))
    #expect(out[2, 0] == red && out[3, 0] == red && out[4, 0] == red)
  }

  @Test("the composite is the same byte for byte on 1, 2, 3 and 8 threads (seeded)")
  func sameForAnyThreadCount() {
    var random = SplitMix64(seed: 52)
    let (w, h) = (37, 23)
    func image(_ alphaZeroShare: Double) -> RGBA8Image {
      RGBA8Image(
        width: w, height: h,
        pixels: (0..<w * h).map { _ in
          SIMD4(
            .random(in: 0...255, using: &random), .random(in: 0...255, using: &random),
            .random(in: 0...255, using: &random),
            Double.random(in: 0..<1, using: &random) < alphaZeroShare
              ? 0 : .random(in: 1...255, using: &random))
        })
    }
    let overlay = image(0.5), camera = image(0)
    let depth = DepthImage(
      width: w, height: h, pixels: (0..<w * h).map { _ in .random(in: 0.5...4, using: &random) })
    let measured = RGBA16Image(
      width: 8, height: 6,
      pixels: (0..<48).map { _ in SIMD4(repeating: .random(in: 0...4000, using: &random)) })
    let outputs = [1, 2, 3, 8].map { threads in
      DepthOcclusion().composite(
        overlay: overlay, depth: depth, over: camera, measured: measured, confidence: nil, threads: threads)
    }
    #expect(outputs.allSatisfy { $0.pixels == outputs[0].pixels })
    #expect(outputs[0].pixels != camera.pixels)  // the content was composited at all
  }
}
