// Pointers that parallel loops (`DispatchQueue.concurrentPerform`) hand to their work items.
// The caller guarantees what the compiler cannot see: the memory outlives the loop, and work
// items write disjoint elements (or only read).

/// A pointer that worker threads write through, each to its own elements.
public struct UnsafeSendableMutablePointer<T>: @unchecked Sendable {
  public let pointer: UnsafeMutablePointer<T>
  public init(_ pointer: UnsafeMutablePointer<T>) { self.pointer = pointer }
}

/// A read-only pointer shared by worker threads.
public struct UnsafeSendablePointer<T>: @unchecked Sendable {
  public let pointer: UnsafePointer<T>
  public init(_ pointer: UnsafePointer<T>) { self.pointer = pointer }
}

/// A read-only buffer shared by worker threads.
public struct UnsafeSendableBuffer<T>: @unchecked Sendable {
  public let buffer: UnsafeBufferPointer<T>
  public init(_ buffer: UnsafeBufferPointer<T>) { self.buffer = buffer }
}
