/// Why numbers from outside (a file, the command line) do not make a valid matrix or transform.
public enum MatrixInputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The wrong number of elements was given.
  case wrongCount(expected: Int, got: Int)
  /// The element at `index` (0-based, in the order given) is NaN or infinite.
  case notFinite(index: Int)

  public var description: String {
    switch self {
    case .wrongCount(let expected, let got): "expected \(expected) numbers, got \(got)"
    case .notFinite(let index): "element \(index) is not a finite number"
    }
  }

  /// Throws unless `elements` has exactly `count` finite numbers.
  static func check<Scalar: ARScalar>(_ elements: [Scalar], count: Int) throws(MatrixInputError) {
    guard elements.count == count else { throw .wrongCount(expected: count, got: elements.count) }
    if let bad = elements.firstIndex(where: { !$0.isFinite }) { throw .notFinite(index: bad) }
  }
}
