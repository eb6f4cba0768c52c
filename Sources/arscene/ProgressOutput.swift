#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Progress of a long run on standard error: a bar redrawn in place when it is a terminal, a
/// line every tenth otherwise (a log file), nothing for runs too short to need it.
final class ProgressOutput {
  private let label: String
  private let terminal = isatty(2) == 1
  private var shown = -1

  init(_ label: String) { self.label = label }

  /// Reports `fraction` (0…1) done.
  func update(_ fraction: Double) {
    let f = min(1, max(0, fraction))
    if terminal {
      let percent = Int(f * 100)
      guard percent != shown else { return }
      shown = percent
      let filled = Int(f * 30)
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: 30 - filled)
      FileHandleOutput.standardError.write("\r\(label) \(bar) \(percent)%" + (f >= 1 ? "\n" : ""))
    } else {
      let tenth = Int(f * 10)
      guard tenth != shown, tenth > 0 else { return }
      shown = tenth
      FileHandleOutput.standardError.write("\(label): \(tenth * 10)%\n")
    }
  }
}
