import ARMath
import ArgumentParser
import Foundation

/// Writes to the standard streams: stdout buffered (fast for many lines), stderr at once.
enum FileHandleOutput {
  case standardOutput, standardError

  func write(_ text: String) {
    switch self {
    case .standardOutput: print(text, terminator: "")
    case .standardError: FileHandle.standardError.write(Data(text.utf8))
    }
  }
}
