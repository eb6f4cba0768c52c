// Pointers that parallel loops (`DispatchQueue.concurrentPerform`) hand to their work items.
// The caller guarantees what the compiler cannot see: the memory outlives the loop, and work
// items write disjoint elements (or only read).

/// A read-only pointer shared by worker threads.
package struct UnsafeSendablePointer<T>: @unchecked Sendable {
  package let pointer: UnsafePointer<T>
  package init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}
