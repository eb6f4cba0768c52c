import Dispatch

/// A value computed on another thread from the moment it is made, waited for where it is needed:
/// a recording frame's camera image decodes while the frame's content renders.
final class BackgroundResult<Value>: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var result: Result<Value, any Error>?

  init(_ work: @escaping @Sendable () throws -> Value) {
    DispatchQueue.global().async {
      self.result = Result(catching: work)
      self.done.signal()
    }
  }

  /// The value, once computed (the work's error thrown).
  func value() throws -> Value {
    done.wait()
    done.signal()  // for the next caller
    return try result!.get()
  }
}
