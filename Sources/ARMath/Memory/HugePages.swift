#if canImport(Glibc)
  import Glibc
#endif

/// Large buffers backed by 2 MiB pages where the kernel allows it.
///
/// A buffer written once, as a loaded model's vertex and index arrays are (tens of megabytes
/// made for each load), is paid for page by page: the kernel handles a fault for each 4 KiB
/// page the first write touches, a quarter of a large USDZ's load. Linux's transparent huge
/// pages, in their common `madvise` setting, back a range with 2 MiB pages (one fault for 512)
/// when asked before it is touched. Elsewhere, or where the setting is `never`, nothing changes.
package enum HugePages {
  /// The size of one huge page, bytes.
  static let size = 2 << 20

  /// Asks for huge pages under the whole 2 MiB-aligned pages inside `buffer` (not yet written:
  /// a page already touched keeps its small pages). Buffers under 4 MiB are left alone: they
  /// hold at most one aligned huge page, and their faults cost little.
  package static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
      guard buffer.count >= 2 * size, let base = buffer.baseAddress else { return }
      let first = (Int(bitPattern: base) + size - 1) & ~(size - 1)
      let end = (Int(bitPattern: base) + buffer.count) & ~(size - 1)
      guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
      // Advice only: a kernel that refuses it (no THP) leaves the buffer as it was.
      _ = madvise(start, end - first, MADV_HUGEPAGE)
    #endif
  }

  /// `advise(_:)` for a typed buffer.
  package static func advise<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
    advise(UnsafeMutableRawBufferPointer(buffer))
  }
}
