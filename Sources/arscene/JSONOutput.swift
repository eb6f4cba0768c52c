import Foundation

/// The one way the CLI writes JSON: a library type's `Encodable` form through one encoder,
/// keys sorted so that the output is stable from run to run, one document a line (or indented,
/// where a command's contract shows it so).
enum JSONOutput {
  /// Writes `value` to standard output, then a newline.
  static func write(_ value: some Encodable, pretty: Bool = false) throws {
    FileHandleOutput.standardOutput.write(try encoded(value, pretty: pretty))
  }

  /// `value` as the JSON text `write` prints, with its newline (for a file).
  static func encoded(_ value: some Encodable, pretty: Bool = false) throws -> String {
    String(decoding: try bytes(value, pretty: pretty), as: UTF8.self) + "\n"
  }

  /// `value` as the JSON text `write` prints, without the newline: as it reads nested in
  /// another value's text (the encoder's output for a value is the same alone and nested).
  static func bytes(_ value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    do { return Array(try encoder.encode(value)) } catch {
      throw InputFailure(message: "cannot write the result as JSON: \(error)")
    }
  }
}
