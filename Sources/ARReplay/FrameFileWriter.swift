import ARImage
import ARImageIO
import Dispatch
import Foundation

/// Writes rendered frames as PNG files on other threads while the next frames render: for a
/// recording, encoding a 1920×1440 PNG takes longer than rendering the frame, so the encoder
/// must not wait its turn. At most `limit` frames are in flight; the first error is kept and
/// thrown by ``finish()``.
final class FrameFileWriter: @unchecked Sendable {
  private let queue = DispatchQueue(label: "arscene.frame-writer", attributes: .concurrent)
  private let group = DispatchGroup()
  private let slots: DispatchSemaphore
  private let lock = NSLock()
  private var failure: Error?

  init(limit: Int = ProcessInfo.processInfo.activeProcessorCount) {
    slots = DispatchSemaphore(value: max(1, limit))
  }

  /// Queues `image` to be written to `path` (atomically), waiting while `limit` are in flight.
  func write(_ image: RGBA8Image, to path: String, compression: Int) throws {
    try submit { try ImageFile.writePNG(image, to: path, compression: compression) }
  }

  /// Queues `depth` to be written to `path` as 16-bit millimetres (atomically).
  func writeDepth(_ depth: DepthImage, to path: String, compression: Int) throws {
    try submit { try ImageFile.writeDepthPNG(depth, to: path, compression: compression) }
  }

  /// Runs `work` on another thread, waiting while `limit` are in flight; its error is kept.
  private func submit(_ work: @escaping @Sendable () throws -> Void) throws {
    try checkFailure()
    slots.wait()
    group.enter()
    queue.async { [self] in
      defer {
        slots.signal()
        group.leave()
      }
      do { try work() } catch {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
      }
    }
  }

  /// Waits for every queued frame; throws the first failure.
  func finish() throws {
    group.wait()
    try checkFailure()
  }

  private func checkFailure() throws {
    lock.lock()
    let error = failure
    lock.unlock()
    if let error { throw error }
  }
}
