import ARImage
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
}
