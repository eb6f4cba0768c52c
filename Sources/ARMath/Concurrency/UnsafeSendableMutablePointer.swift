// Pointers that parallel loops (`DispatchQueue.concurrentPerform`) hand to their work items.
// The caller guarantees what the compiler cannot see: the memory outlives the loop, and work
// items write disjoint elements (or only read).

/// A pointer that worker threads write through, each to its own elements.
package struct UnsafeSendableMutablePointer<T>: @unchecked Sendable {
  package let pointer: UnsafeMutablePointer<T>
  package init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}
