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
/// Arrays of at least 64 Ki elements are kept, at most `limit` of them and `byteLimit` bytes
/// in all (the oldest make room; one larger than that is not kept); an array is handed out only
/// to a caller asking for exactly its count, which then writes every element (the values are
/// left over from earlier use). Thread-safe.
final class ScratchArrays<Element>: @unchecked Sendable {
  private let lock = NSLock()
  private var kept: [[Element]] = []
  private let limit: Int, byteLimit: Int

  init(limit: Int, byteLimit: Int) { (self.limit, self.byteLimit) = (limit, byteLimit) }

  /// The bytes `arrays` hold.
  private static func bytes(_ arrays: [[Element]]) -> Int {
    arrays.reduce(0) { $0 + $1.count * MemoryLayout<Element>.stride }
  }

  /// A kept array of exactly `count` elements (its values left over), or `make(count)`.
  func take(count: Int, orMake make: (Int) -> [Element]) -> [Element] {
    lock.lock()
    let index = kept.firstIndex { $0.count == count }
    let found = index.map { kept.remove(at: $0) }
    lock.unlock()
    return found ?? make(count)
  }

  /// Keeps `array` for a later ``take(count:orMake:)``; the oldest kept arrays make room.
  func give(_ array: [Element]) {
    let size = array.count * MemoryLayout<Element>.stride
    guard array.count >= 1 << 16, limit > 0, size <= byteLimit else { return }
    lock.lock()
    while !kept.isEmpty && (kept.count >= limit || Self.bytes(kept) + size > byteLimit) { kept.removeFirst() }
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
