import ARMath
import Testing

/// Huge-page advice on large buffers: advice only, never a change to what they hold.
@Suite("Huge pages")
struct HugePagesTests {
  @Test(
    "advice on buffers of every size and alignment leaves every byte as written, before and after",
    arguments: [0, 1, 4095, 3 << 20, (4 << 20) + 17])
  func adviceKeepsContents(_ bytes: Int) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes + 8, alignment: 8)
    defer { buffer.deallocate() }
    // Written in part before the advice (a page already touched keeps its pages) and in part
    // after, from an odd offset: neither half may be lost or moved.
    let region = UnsafeMutableRawBufferPointer(rebasing: buffer[3..<(3 + bytes)])
    let half = bytes / 2
    for i in 0..<half { region[i] = UInt8(truncatingIfNeeded: i &* 31) }
    HugePages.advise(region)
    for i in half..<bytes { region[i] = UInt8(truncatingIfNeeded: i &* 31) }
    #expect((0..<bytes).allSatisfy { region[$0] == UInt8(truncatingIfNeeded: $0 &* 31) })
  }
}
