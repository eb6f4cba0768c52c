import ARFiles
import ARMath
import ArgumentParser
import Foundation

/// Writes to the standard streams: stdout buffered (fast for many lines), stderr at once.
///
/// A write to standard error that fails (a full disk behind `2>file`, a closed descriptor) is
/// dropped: a message that cannot be shown must not end the run (Foundation's `FileHandle`
/// traps there).
enum FileHandleOutput {
  case standardOutput, standardError

  func write(_ text: String) {
    switch self {
    case .standardOutput: print(text, terminator: "")
    case .standardError:
      // Warnings and progress quote names and fields from files: no escape sequence or
      // bidirectional override of theirs reaches the terminal.
      var text = text.escapedForMessage(keepingLineBreaks: true)
      _ = text.withUTF8 { FileIO.writeAll(UnsafeRawBufferPointer($0), to: 2) }
    }
  }
}
