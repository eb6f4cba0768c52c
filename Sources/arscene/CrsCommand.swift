import ARCRS
import ARMath
import ArgumentParser
import Foundation

/// `arscene crs`: coordinates between reference systems, through PROJ.
struct CrsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "crs",
    abstract:
      "Coordinate reference systems through PROJ: convert coordinates between national grids, UTM and WGS84.",
    subcommands: [Convert.self]
  )

  struct Convert: ParsableCommand, StreamsStandardInput {
    static let configuration = CommandConfiguration(
      commandName: "convert",
      abstract: "Convert `x y [z]` lines on stdin from one CRS to another, as PROJ's cs2cs does.",
      discussion: """
        Coordinates are in each CRS's own axis order and units, as cs2cs takes them: EPSG:4326 is \
        latitude longitude (degrees), EPSG:5514 (S-JTSK / Křovák East North) and UTM zones easting \
        northing (metres). Numbers are separated by spaces, tabs or commas; blank lines and lines \
        starting with # are skipped; output lines are the converted numbers to 12 significant \
        digits. An unknown CRS, a bad line or a coordinate outside the operation's domain is an \
        error naming it, exit 2.
        """)

    @Option(help: "The source CRS (EPSG:5514, EPSG:32633, a PROJ string…).") var from: String
    @Option(help: "The target CRS.") var to: String

    func run() throws {
      try reportingInputFailures {
        let operation: CoordinateOperation
        do { operation = try CoordinateOperation(from: from, to: to) } catch {
          throw InputFailure(message: "--from \(from) --to \(to): \(error)")
        }
        var out = ""
        try forEachStandardInputLine { line, lineNumber in
          let count = line.split(whereSeparator: { " \t,\r".contains($0) }).count
          let values: [Double]?
          do {
            values = try NumberText.parseLine(
              line, columns: count == 3 ? 3 : 2, source: "stdin", lineNumber: lineNumber)
          } catch { throw InputFailure(error) }
          guard let values else { return }
          let converted: [Double]
          do { converted = try operation.transform(values) } catch {
            throw InputFailure(message: "stdin:\(lineNumber): \(error)")
          }
          out += converted.map { String(format: "%.12g", $0) }.joined(separator: " ") + "\n"
          if out.utf8.count > 1 << 16 {
            FileHandleOutput.standardOutput.write(out)
            out = ""
          }
        }
        FileHandleOutput.standardOutput.write(out)
      }
    }
  }
}
