#if canImport(Glibc)
  import Glibc
#endif

/// glibc's allocator set for arscene's frames: buffers of megabytes (a 1920×1440 frame is 11 MB
/// as RGBA, more as floats) taken and given back for every frame.
///
/// By default glibc maps each block of 128 KB or more on its own, or raises that bound as blocks
/// are freed, and gives free memory at the top of its heap back to the system above 128 KB. Each
/// frame's buffers then come back as fresh pages the kernel must fault in and zero, and two threads
/// doing so at once queue on the process's memory map: `render --recording` spent a seventh of
/// its time in the kernel. With blocks up to 32 MB (glibc's largest bound) kept in the heap and
/// freed memory kept up to 1 GB, a 31-frame 1920×1440 recording takes 31 thousand page faults
/// instead of 386 thousand, for 4 MB more at its peak (docs/PERFORMANCE.md has the times).
/// Blocks beyond 32 MB (a 12 MP photo's float planes) are still mapped on their own. A no-op
/// where the C library is not glibc.
enum AllocatorTuning {
  static func apply() {
    #if canImport(Glibc)
      // mallopt is glibc's, not in Swift's Glibc module: looked up where it is defined.
      guard let symbol = dlsym(nil, "mallopt") else { return }
      let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
      let (trimThreshold, mmapThreshold): (Int32, Int32) = (-1, -3)  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
      _ = mallopt(mmapThreshold, 32 << 20)
      _ = mallopt(trimThreshold, 1 << 30)
    #endif
  }
}
