/// Results of parallel work items, a slot each.
final class Slots<Value>: @unchecked Sendable {
  private let slots: UnsafeMutablePointer<Value?>
  private let count: Int

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil, count: count)
    self.count = count
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  // Each work item writes its own slot; slots are read after all items have finished.
  func set(_ slot: Int, _ value: Value) { slots[slot] = value }
  var values: [Value] { UnsafeBufferPointer(start: slots, count: count).map { $0! } }
}
