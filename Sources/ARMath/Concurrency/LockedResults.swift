import Foundation

/// Results that workers fill in by index, read back in order: the first error by index thrown.
///
/// Inlinable, so that each user's `Value` is specialised: unspecialised, reading back a hundred
/// placed surfaces (arrays in a struct) through value witnesses was an eighth of a 980k-triangle
/// USDZ's serial load.
package final class LockedResults<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  @usableFromInline var results: [Result<Value, any Error>?]

  @inlinable
  package init(count: Int) { results = Array(repeating: nil, count: count) }

  /// Stores what `make` gives (or throws) as result `index`.
  @inlinable
  package func set(_ index: Int, _ make: () throws -> Value) {
    let result = Result(catching: make)
    lock.withLock { results[index] = result }
  }

  /// The values in index order; the first error by index thrown.
  @inlinable
  package func inOrder() throws -> [Value] {
    try all().map { try $0.get() }
  }

  /// Every result in index order (all set by now).
  @inlinable
  package func all() -> [Result<Value, any Error>] {
    lock.withLock { results }.map { $0! }
  }
}
