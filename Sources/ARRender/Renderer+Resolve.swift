extension Renderer {
  /// Averages each `factor × factor` block of the samples `xs × ys` (box filter in linear light)
  /// into the output pixels they cover, encoded as `output` encodes. Where samples are not all
  /// opaque (a transparent background: the overlay alone), colours are averaged weighted by
  /// their alpha and the pixel keeps straight alpha, so an edge half over nothing is the
  /// model's colour at half opacity, not a darkened one.
  static func resolve(
    _ samples: LinearSamples, width: Int, factor s: Int, _ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>,
    into output: EncodedSamples, outputWidth: Int
  ) {
    if s == 1 {
      // One sample a pixel: a plain encoding pass.
      for y in ys {
        let row = y * width, outputRow = y * outputWidth
        for x in xs { output.write(output.encode(samples.color[row + x]), at: outputRow + x) }
      }
      return
    }
    let scale = 1 / Float(s * s)
    for y in stride(from: ys.lowerBound, to: ys.upperBound + 1, by: s) {
      for x in stride(from: xs.lowerBound, to: xs.upperBound + 1, by: s) {
        var c = SIMD4<Float>.zero, premultiplied = SIMD3<Float>.zero
        for sy in 0..<s {
          for sx in 0..<s {
            let sample = samples.color[(y + sy) * width + x + sx]
            c += sample
            premultiplied += SIMD3(sample.x, sample.y, sample.z) * sample.w
          }
        }
        var pixel = c * scale
        if c.w != Float(s * s) {
          let rgb = c.w > 0 ? premultiplied / c.w : .zero
          pixel = SIMD4(rgb, pixel.w)
        }
        output.write(output.encode(pixel), at: (y / s) * outputWidth + x / s)
      }
    }
  }
}
