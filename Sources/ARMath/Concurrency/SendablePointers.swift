// Pointers that parallel loops (`DispatchQueue.concurrentPerform`) hand to their work items.
// The caller guarantees what the compiler cannot see: the memory outlives the loop, and work
// items write disjoint elements (or only read).

/// A pointer that worker threads write through, each to its own elements.
package struct UnsafeSendableMutablePointer<T>: @unchecked Sendable {
  package let pointer: UnsafeMutablePointer<T>
  package init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// A read-only pointer shared by worker threads.
package struct UnsafeSendablePointer<T>: @unchecked Sendable {
  package let pointer: UnsafePointer<T>
  package init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}

/// A read-only buffer shared by worker threads.
package struct UnsafeSendableBuffer<T>: @unchecked Sendable {
  package let buffer: UnsafeBufferPointer<T>
  package init(_ buffer: UnsafeBufferPointer<T>) { self.buffer = buffer }
}
