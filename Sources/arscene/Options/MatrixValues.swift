/// A 4x4 matrix as 16 finite numbers, column-major (GLM's and glTF's order).
struct MatrixValues: OptionValue {
  var columnMajor: [Double]

  init(parsing text: String) throws(OptionValueError) {
    columnMajor = try NumberList.parse(text, count: 16)
  }
}
