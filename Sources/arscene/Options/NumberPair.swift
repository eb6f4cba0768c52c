/// Two finite numbers `X,Y`: a tap or a view size in points, an image size.
struct NumberPair: OptionValue {
  var vector: SIMD2<Double>

  init(parsing text: String) throws(OptionValueError) {
    let v = try NumberList.parse(text, count: 2)
    vector = SIMD2(v[0], v[1])
  }
}
