// Pointers that parallel loops (`DispatchQueue.concurrentPerform`) hand to their work items.
// The caller guarantees what the compiler cannot see: the memory outlives the loop, and work
// items write disjoint elements (or only read).

/// A read-only buffer shared by worker threads.
package struct UnsafeSendableBuffer<T>: @unchecked Sendable {
  package let buffer: UnsafeBufferPointer<T>
  package init(_ buffer: UnsafeBufferPointer<T>) { self.buffer = buffer }
}
