import Foundation

/// Results that workers fill in by index, read back in order: the first error by index thrown.
///
/// Inlinable, so that each user's `Value` is specialised: unspecialised, reading back a hundred
/// placed surfaces (arrays in a struct) through value witnesses was an eighth of a 980k-triangle
/// USDZ's serial load. Public, not `package`: Swift 6.3 specialises another module's inlinable
/// generics only when they are public (as `package`, every caller in the release build called
/// the generic `all()`; ten A/B pairs of that USDZ's load: medians 5.2 → 5.0 ms).
public final class LockedResults<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  @usableFromInline var results: [Result<Value, any Error>?]

  /// `count` results, none set yet.
  @inlinable
  public init(count: Int) { results = Array(repeating: nil, count: count) }

  /// Stores what `make` gives (or throws) as result `index`.
  @inlinable
  public func set(_ index: Int, _ make: () throws -> Value) {
    let result = Result(catching: make)
    lock.withLock { results[index] = result }
  }

  /// The values in index order; the first error by index thrown.
  @inlinable
  public func inOrder() throws -> [Value] {
    try all().map { try $0.get() }
  }

  /// Every result in index order (all set by now).
  @inlinable
  public func all() -> [Result<Value, any Error>] {
    lock.withLock { results }.map { $0! }
  }
}
