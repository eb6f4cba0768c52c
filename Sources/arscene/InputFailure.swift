import ARFiles
import ARMath
import ArgumentParser
import Foundation

/// A failure the user caused (bad input): printed as one line, exit code 2; or one the machine
/// caused (a full disk: ``ExitStatus/transient``, 75).
struct InputFailure: Error, CustomStringConvertible {
  let description: String
  init(_ error: some Error) { description = String(describing: error) }
  init(message: String) { description = message }
}

extension ParsableCommand {
  /// Runs `body`, turning input failures into one line on standard error and exit code 2 (75
  /// when the machine failed: ``ExitStatus/code(for:)``).
  func reportingInputFailures(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let failure as InputFailure {
      // One line, whatever the message holds: a file name with a newline or a bidirectional
      // override cannot split or disguise it.
      FileHandleOutput.standardError.write("arscene: \(failure.description.escapedForMessage)\n")
      throw ExitCode(ExitStatus.code(for: failure.description))
    }
  }
}

/// Calls `body` with each line of standard input that holds `columns` numbers (spaces or commas;
/// blank lines and `#` comments skipped) and its line number; a bad line is an input failure
/// naming it (`stdin:3: …`).
func forEachNumberLine(columns: Int, _ body: ([Double], Int) throws -> Void) throws {
  try forEachStandardInputLine { line, lineNumber in
    let fields: [Double]?
    do {
      fields = try NumberText.parseLine(line, columns: columns, source: "stdin", lineNumber: lineNumber)
    } catch { throw InputFailure(error) }
    if let values = fields { try body(values, lineNumber) }
  }
}

/// Calls `body` with each line of standard input (without its line ending, `\r\n` and `\r`
/// included) and its 1-based number. A line over `LineReader`'s limit or a read error is an
/// input failure naming the line, never a quiet end of input.
func forEachStandardInputLine(_ body: (String, Int) throws -> Void) throws {
  let lines: LineReader
  do { lines = try LineReader(path: "/dev/stdin", bufferSize: 1 << 16) } catch {
    throw InputFailure(message: "stdin: \(error.reason)")
  }
  while true {
    let line: [UInt8]?
    do { line = try lines.next() } catch { throw InputFailure(message: "stdin: \(error.reason)") }
    guard let line else { return }
    try body(String(decoding: line, as: UTF8.self), lines.lineNumber)
  }
}
