import ARMath
import Foundation

/// A hierarchy's 8-wide tree, made once by the first query that asks for it. (A lock rather
/// than `Mutex`, which needs macOS 15: app teams test with ARHit on their Macs.)
final class LazyEightWideTree: @unchecked Sendable {
  private let lock = NSLock()
  // Guarded by `lock`.
  private var made: EightWideTree?

  /// The tree, made by `make` on the first call.
  func tree(_ make: () -> EightWideTree) -> EightWideTree {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    let tree = make()
    made = tree
    return tree
  }
}
