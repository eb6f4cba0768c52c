import ARImage
import ARMath

/// Real objects in front of virtual ones, from a recording's depth image: an overlay pixel is
/// hidden where the measured depth is nearer than the rendered one, with a soft edge, then
/// composited over the camera image in linear light.
///
/// Depth images are 16-bit millimetres along the view axis (0: no measurement), usually
/// smaller than the camera image (ARKit's 256×192 against 1920×1440) and sampled at the same
/// relative position; confidence images hold 0 (low), 1 (medium), 2 (high).
public struct DepthOcclusion: Sendable {
  /// Measurements below this confidence are not trusted to hide anything.
  public var minimumConfidence: UInt8
  /// Over this depth difference (metres) the virtual content fades from hidden to shown: the
  /// soft edge that the depth's noise and resolution call for.
  public var softness: Float = 0.05

  /// Occlusion by depth samples of at least `minimumConfidence` (ARKit's 0 low, 1 medium, 2 high).
  public init(minimumConfidence: UInt8 = 1) { self.minimumConfidence = minimumConfidence }

  /// `overlay` (straight alpha) with its `depth` (metres, +∞ where nothing is drawn), hidden
  /// where `measured` (`measuredPerMetre` units a metre: millimetres by default) is nearer,
  /// composited over `camera`. `confidence`, when
  /// given, has the size of `measured`; without `measured` the overlay is laid over the camera
  /// image as it is. `overlay`, `depth` and `camera` have one size. The rows are shared among
  /// at most `threads` worker threads (the result is the same for any count).
  public func composite(
    overlay: RGBA8Image, depth: DepthImage, over camera: RGBA8Image, measured: RGBA16Image?,
    confidence: RGBA8Image?, measuredPerMetre: Float = 1000, threads: Int = 2
  ) -> RGBA8Image {
    let (w, h) = (overlay.width, overlay.height)
    precondition(
      camera.width == w && camera.height == h && depth.width == w && depth.height == h,
      "the overlay, its depth and the camera image differ in size")
    // The depth pixel under each pixel centre's column and row.
    let (mw, mh) = (measured?.width ?? 1, measured?.height ?? 1)
    let columns = (0..<w).map { x in min(mw - 1, Int((Double(x) + 0.5) * Double(mw) / Double(w))) }
    let rows = (0..<h).map { y in min(mh - 1, Int((Double(y) + 0.5) * Double(mh) / Double(h))) }
    // Each band copies its rows of the camera image and composites over them: no serial copy
    // of the whole frame first. Four bands a thread even out bands of uneven cost (the content
    // covers some rows only).
    let bands = min(h, max(1, threads) * 4)
    let pixels = [SIMD4<UInt8>](unsafeUninitializedCapacity: w * h) { result, initialized in
      let target = UnsafeSendableMutablePointer(result.baseAddress!)
      let inputs = CompositeInputs(
        overlay: overlay, depth: depth, camera: camera, measured: measured, confidence: confidence,
        measuredPerMetre: measuredPerMetre, columns: columns, rows: rows)
      forEachBand(bands, threads: threads) { band in
        for y in h * band / bands..<h * (band + 1) / bands { compositeRow(y, inputs, into: target.pointer) }
      }
      initialized = w * h
    }
    return RGBA8Image(width: w, height: h, pixels: pixels)
  }

  /// What ``composite(overlay:depth:over:measured:confidence:)`` reads, shared by its bands.
  private struct CompositeInputs: Sendable {
    let overlay: RGBA8Image, depth: DepthImage, camera: RGBA8Image, measured: RGBA16Image?
    let confidence: RGBA8Image?
    let measuredPerMetre: Float
    let columns: [Int], rows: [Int]
  }

  /// Writes row `y` of the camera image into `out`, then composites the overlay over it.
  private func compositeRow(_ y: Int, _ inputs: CompositeInputs, into out: UnsafeMutablePointer<SIMD4<UInt8>>)
  {
    let table = SRGB.decodeTable
    let encoder = SRGB.Encoder.shared
    let w = inputs.overlay.width
    inputs.camera.pixels.withUnsafeBufferPointer {
      (out + y * w).initialize(from: $0.baseAddress! + y * w, count: w)
    }
    let measured = inputs.measured
    let depthRow = inputs.rows[y] * (measured?.width ?? 0)
    for x in 0..<w {
      let i = y * w + x
      let o = inputs.overlay.pixels[i]
      guard o.w > 0 else { continue }
      var alpha = Float(o.w) / 255
      let k = depthRow + inputs.columns[x]
      let virtual = inputs.depth.pixels[i]
      if let measured, case let units = measured.pixels[k].x, units > 0, virtual.isFinite,
        inputs.confidence.map({ $0.pixels[k].x >= minimumConfidence }) ?? true
      {
        // Shown in full when the real surface is `softness/2` behind the virtual one,
        // hidden when it is that far in front.
        let real = Float(units) / inputs.measuredPerMetre
        alpha *= min(1, max(0, (real - virtual) / softness + 0.5))
      }
      guard alpha > 0 else { continue }
      let c = inputs.camera.pixels[i]
      var rgb = SIMD3<Float>.zero
      for k in 0..<3 {
        rgb[k] = table[Int(o[k])] * alpha + table[Int(c[k])] * (1 - alpha)
      }
      out[i] = SIMD4(encoder.code(rgb.x), encoder.code(rgb.y), encoder.code(rgb.z), c.w)
    }
  }
}
