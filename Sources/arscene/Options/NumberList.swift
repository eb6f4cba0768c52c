import ARMath

/// Comma-separated finite numbers, as options write them (`640,480`).
enum NumberList {
  /// The `count` numbers of `text` (any count when nil).
  /// - Throws: the count or the field that is wrong, and why.
  static func parse(_ text: String, count: Int?) throws(OptionValueError) -> [Double] {
    do { return try NumberText.parseList(text, count: count, name: "") } catch {
      switch error {
      case .wrongCount(_, _, let expected, let got):
        throw OptionValueError("expected \(expected) numbers, got \(got)")
      case .notANumber(_, _, let field, _):
        throw OptionValueError("field \(field) is not a number")
      case .notFinite(_, _, let field, _):
        throw OptionValueError("field \(field) is not a finite number")
      }
    }
  }
}
