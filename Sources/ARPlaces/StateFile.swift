import ARFiles
import Foundation

/// The small JSON files places keep between runs (alert histories, games): read whole, written
/// whole to a temporary file and renamed, so that a crash never leaves half a state.
enum StateFile {
  /// The state in `path`, or nil when there is no such file.
  ///
  /// - Throws: ``PlaceFileError`` for a file that cannot be read, is not the format, or has a
  ///   field of the wrong type (named by its JSON path).
  static func read<State: VersionedState>(_ type: State.Type, path: String) throws(PlaceFileError) -> State? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let bytes: [UInt8]
    do { bytes = try FileIO.readText(path) } catch { throw .unreadable(path: path, reason: error.reason) }
    InputFiles.forget(path)  // read to be written back: the one input an output may replace
    let state: State
    do { state = try JSONDecoder().decode(State.self, from: Data(bytes)) } catch {
      let failure = JSONDecodingFailure(error, bytes: bytes)
      throw .invalid(path: path, field: failure.field ?? "(document)", reason: failure.reason)
    }
    let (name, version) = State.currentFormat
    guard state.format == name, state.version == version else {
      throw .invalid(path: path, field: "format", reason: "not an \(name) file, version \(version)")
    }
    return state
  }

  /// Writes `state` to `path` (sorted keys, indented), atomically.
  static func write(_ state: some Encodable, to path: String) throws(PlaceFileError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    do { try FileIO.writeAtomically([UInt8](try encoder.encode(state)) + [10], to: path) } catch {
      throw .unreadable(path: path, reason: "cannot write: \(error)")
    }
  }
}
