import ARMath
import ArgumentParser
import Foundation

/// A failure the user caused (bad input): printed as one line, exit code 2.
struct InputFailure: Error, CustomStringConvertible {
  let description: String
  init(_ error: some Error) { description = String(describing: error) }
  init(message: String) { description = message }
}

extension ParsableCommand {
  /// Runs `body`, turning input failures into one line on standard error and exit code 2.
  func reportingInputFailures(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let failure as InputFailure {
      FileHandleOutput.standardError.write("arscene: \(failure.description)\n")
      throw ExitCode(2)
    }
  }
}

/// Calls `body` with each line of standard input that holds `columns` numbers (spaces or commas;
/// blank lines and `#` comments skipped) and its line number; a bad line is an input failure
/// naming it (`stdin:3: …`).
func forEachNumberLine(columns: Int, _ body: ([Double], Int) throws -> Void) throws {
  var lineNumber = 0
  while let line = readLine(strippingNewline: true) {
    lineNumber += 1
    let fields: [Double]?
    do {
      fields = try NumberText.parseLine(line, columns: columns, source: "stdin", lineNumber: lineNumber)
    } catch { throw InputFailure(error) }
    if let values = fields { try body(values, lineNumber) }
  }
}
