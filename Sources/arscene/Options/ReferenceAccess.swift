import ARFiles
import ARMath
import ArgumentParser
import Foundation

/// `--allow-path DIR`: folders the references inside input files (a glTF's buffers and images, an
/// OBJ's material libraries and textures, a scene's models, a recording's frames) may reach
/// beyond each file's own folder. Without it they reach only that folder and what is below it
/// (`FileReferences`), so a hostile asset cannot make arscene read, embed or print
/// `/etc/shadow`.
struct ReferenceAccess: ParsableArguments {
  @Option(
    name: .customLong("allow-path"),
    help: ArgumentHelp(
      "Let references inside input files reach this folder too (repeatable); by default they stay in each file's folder.",
      valueName: "dir"))
  var allowedFolders: [String] = []

  /// Allows the folders of `ARSCENE_ALLOW_PATH` (colon-separated, as `PATH`), for every
  /// command: how a CI job or a service widens the reach once. A folder that does not exist is
  /// a usage error (exit 64).
  static func allowFromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
    for folder in (environment["ARSCENE_ALLOW_PATH"] ?? "").split(separator: ":").map(String.init) {
      do { try FileReferences.allow(folder: folder) } catch {
        FileHandleOutput.standardError.write(
          "arscene: ARSCENE_ALLOW_PATH: \(folder.escapedForMessage): no such folder\n")
        Foundation.exit(64)
      }
    }
  }

  /// Allows the folders as the options are parsed, before any command reads a file; a folder
  /// that does not exist is a usage error.
  func validate() throws {
    for folder in allowedFolders {
      do { try FileReferences.allow(folder: folder) } catch {
        throw ValidationError("--allow-path \(folder.escapedForMessage): no such folder")
      }
    }
  }
}
