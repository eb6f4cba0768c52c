import Dispatch

/// A value computed on another thread from the moment it is made, waited for where it is needed:
/// a recording frame's camera image decodes while the frame's content renders.
///
/// `Value` is `Sendable`: it is made on one thread and read on another. The semaphore orders the
/// write of ``result`` before every read, which is why the class can promise `Sendable`.
final class BackgroundResult<Value: Sendable>: @unchecked Sendable {
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
