import Foundation

extension Process {
  /// Blocks until the process has exited, like `waitUntilExit()` but without its delay: on
  /// Linux, swift-corelibs-foundation's `waitUntilExit()` spins the run loop in 50 ms steps, so
  /// an exit is seen up to 50 ms late (a 0.26 s child timed as 0.30 s, a 10 ms one as 52 ms).
  /// `isRunning` turns false as soon as Foundation has reaped the child and set its
  /// `terminationStatus`, so polling it every 0.2 ms sees the exit within that.
  public func waitUntilExitPromptly() {
    while isRunning { usleep(200) }
  }
}
