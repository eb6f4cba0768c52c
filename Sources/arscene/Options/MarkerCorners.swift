/// A square marker's four image corners `X0,Y0,…,X3,Y3` in pixels, all finite.
struct MarkerCorners: OptionValue {
  var points: [SIMD2<Double>]

  init(parsing text: String) throws(OptionValueError) {
    let c = try NumberList.parse(text, count: 8)
    points = (0..<4).map { SIMD2(c[2 * $0], c[2 * $0 + 1]) }
  }
}
