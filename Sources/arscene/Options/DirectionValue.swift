/// A direction `X,Y,Z`: finite and not zero, unit length after parsing.
struct DirectionValue: OptionValue {
  var unit: SIMD3<Double>

  init(parsing text: String) throws(OptionValueError) {
    let v = try NumberList.parse(text, count: 3)
    let vector = SIMD3(v[0], v[1], v[2])
    let length = (vector * vector).sum().squareRoot()
    guard length > 0, length.isFinite else { throw OptionValueError("the direction must not be zero") }
    unit = vector / length
  }
}
