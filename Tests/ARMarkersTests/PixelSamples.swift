/// The mean of `light` over `samples` × `samples` points spread evenly over the pixel at
/// (`x`, `y`) (its top-left corner; y down): how the test frames draw edges as a camera's
/// pixels average them.
func pixelMean(x: Int, y: Int, samples: Int, _ light: (SIMD2<Double>) -> Double) -> Double {
  var sum = 0.0
  for sy in 0..<samples {
    for sx in 0..<samples {
      let s = Double(samples)
      sum += light(SIMD2(Double(x) + (Double(sx) + 0.5) / s, Double(y) + (Double(sy) + 0.5) / s))
    }
  }
  return sum / Double(samples * samples)
}
