/// A growable run of plain values in memory its owner allocates and frees, for the frame's
/// setup buffers that the rasterizer's workers read through pointers.
///
/// A Swift array's storage may only be addressed inside `withUnsafeBufferPointer`; the workers
/// need the setup's triangles and bins for the whole rasterization, so those live here instead:
/// ``base`` stays valid until the buffer next grows or is freed, and the owner (a
/// ``SetupBatch``) neither grows nor frees it while a frame is rasterized. A copy of the value
/// shares the memory: the owner keeps the one copy that counts and calls ``deallocate()``.
struct RenderBuffer<Element: BitwiseCopyable> {
  /// The first element; valid for ``count`` elements until the buffer grows or is freed.
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private(set) var capacity = 0

  init() { base = .allocate(capacity: 1) }

  var isEmpty: Bool { count == 0 }

  subscript(i: Int) -> Element {
    @inline(__always) get { base[i] }
    @inline(__always) nonmutating set { base[i] = newValue }
  }

  /// Makes room for `n` elements in all without moving them again.
  mutating func reserve(_ n: Int) {
    guard n > capacity else { return }
    // Half as much again: a first frame grows its buffers a few times, later ones not at all.
    let grown = Swift.max(n, capacity + capacity / 2, 16)
    let fresh = UnsafeMutablePointer<Element>.allocate(capacity: grown)
    fresh.update(from: base, count: count)
    base.deallocate()
    base = fresh
    capacity = grown
  }

  @inline(__always)
  mutating func append(_ element: Element) {
    if count == capacity { reserve(count + 1) }
    base[count] = element
    count &+= 1
  }

  mutating func append(contentsOf elements: some Collection<Element>) {
    reserve(count + elements.count)
    for element in elements {
      base[count] = element
      count &+= 1
    }
  }

  /// `n` copies of `value`, in place of what the buffer held.
  mutating func replace(count n: Int, with value: Element) {
    count = 0
    reserve(n)
    base.update(repeating: value, count: n)
    count = n
  }

  /// Forgets the elements, keeping the memory.
  mutating func removeAll() { count = 0 }

  /// Frees the memory; the buffer must not be used again.
  func deallocate() { base.deallocate() }
}
