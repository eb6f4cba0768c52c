import Foundation

/// Frame-sized arrays kept between detections: a frame's grey image, its halved copy and its
/// threshold masks reuse memory the process already holds instead of asking the kernel for
/// fresh pages each frame.
///
/// Why: glibc serves blocks over 128 KB from `mmap` and gives freed ones back, with a threshold
/// it moves as blocks come and go. Whether a detection's 20 MB of buffers were faulted in anew
/// (zeroed by the kernel, two threads queueing on the process's memory map) or reused from the
/// heap depended on the order of earlier frees, so the same 20-tag 1920×1440 frame took 12.7 ms
/// in one process and 17–20 ms in the next (six processes of the bench, 2026-11-29); with glibc
/// told to keep such blocks (as `arscene` does), 12.4–12.6 ms in every process. A library
/// cannot set the allocator of the app it runs in, so it keeps its own blocks.
///
/// At most `limit` arrays of at least 64 Ki elements are kept; an array is handed out only to a
/// caller asking for exactly its count, which then writes every element (the values are left
/// over from earlier use). Thread-safe.
final class ScratchArrays<Element>: @unchecked Sendable {
  private let lock = NSLock()
  private var kept: [[Element]] = []
  private let limit: Int

  init(limit: Int) { self.limit = limit }

  /// A kept array of exactly `count` elements (its values left over), or `make(count)`.
  func take(count: Int, orMake make: (Int) -> [Element]) -> [Element] {
    lock.lock()
    let index = kept.firstIndex { $0.count == count }
    let found = index.map { kept.remove(at: $0) }
    lock.unlock()
    return found ?? make(count)
  }

  /// Keeps `array` for a later ``take(count:orMake:)``; the oldest kept array makes room.
  func give(_ array: [Element]) {
    guard array.count >= 1 << 16, limit > 0 else { return }
    lock.lock()
    if kept.count >= limit { kept.removeFirst() }
    kept.append(array)
    lock.unlock()
  }
}

extension ScratchArrays where Element: BitwiseCopyable {
  /// `count` elements the caller writes every one of, kept or new (left uninitialised: a new
  /// array's pages are first touched by the caller's writes).
  func take(count: Int) -> [Element] {
    take(count: count) { n in [Element](unsafeUninitializedCapacity: n) { _, initialized in initialized = n }
    }
  }
}
