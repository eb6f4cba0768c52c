import Foundation

/// Results that workers fill in by index, read back in order: the first error by index thrown.
package final class LockedResults<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var results: [Result<Value, any Error>?]

  package init(count: Int) { results = Array(repeating: nil, count: count) }

  /// Stores what `make` gives (or throws) as result `index`.
  package func set(_ index: Int, _ make: () throws -> Value) {
    let result = Result(catching: make)
    lock.withLock { results[index] = result }
  }

  /// The values in index order; the first error by index thrown.
  package func inOrder() throws -> [Value] {
    try all().map { try $0.get() }
  }

  /// Every result in index order (all set by now).
  package func all() -> [Result<Value, any Error>] {
    lock.withLock { results }.map { $0! }
  }
}
