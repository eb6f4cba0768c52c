import ARTestSupport
import Foundation
import Testing

/// Runs the built `arscene` binary, as a user or script would.
struct ArsceneRunner {
  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The `arscene` executable beside this test bundle (SwiftPM builds it first, since the test
  /// target depends on it).
  static var executable: URL {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // On Linux the test runner is `…/debug/ARScenePackageTests.xctest`; on macOS a bundle deeper.
    for _ in 0..<4 where !FileManager.default.fileExists(atPath: dir.appendingPathComponent("arscene").path) {
      dir.deleteLastPathComponent()
    }
    return dir.appendingPathComponent("arscene")
  }

  /// Runs `arscene arguments…` with `stdin` as standard input, from `directory` (default: the
  /// package root, so relative paths such as `Scenes/…` work). With `timeout` (seconds), a run
  /// still going then is killed and reported as status −1 (a hang, not a slow machine: the
  /// limits are many times the work).
  static func run(
    _ arguments: [String], stdin: String = "", directory: URL? = nil, timeout: Double? = nil,
    environment: [String: String] = [:]
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    // The package's own test fixtures reference files across its folders (a fixture scene's
    // models in Scenes/models): the suite widens references to the package, as a team's CI job
    // would with ARSCENE_ALLOW_PATH. A test of confinement passes "" (or works outside it).
    let widened = ["ARSCENE_ALLOW_PATH": packageRoot.path].merging(environment) { $1 }
    process.environment = ProcessInfo.processInfo.environment.merging(widened) { $1 }
    process.currentDirectoryURL = directory ?? packageRoot
    let input = Pipe(), output = Pipe(), error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Feed stdin on another thread so a large input cannot deadlock against a full stdout pipe.
    let data = Data(stdin.utf8)
    // A run may stop before reading all its input (a bad line): the rest of the write fails
    // with EPIPE, which must neither trap nor end the test process by SIGPIPE.
    _ = Self.ignoreBrokenPipes
    let writer = Thread {
      try? input.fileHandleForWriting.write(contentsOf: data)
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let started = Date()
    if let timeout {
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
        if process.isRunning { process.terminate() }
      }
    }
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExitPromptly()
    let timedOut =
      timeout.map { process.terminationReason == .uncaughtSignal && Date().timeIntervalSince(started) >= $0 }
      ?? false
    return Outcome(
      status: timedOut ? -1 : process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// Simulates a seeded walk of `duration` seconds at the scene at `scene` into
  /// `folder/walk.jsonl` (`options` added: `--frames`, `--image-size`, …), expecting success.
  /// - Returns: The recording's path.
  static func simulatedWalk(
    scene: String, seed: Int, duration: Int, in folder: TemporaryFolder, options: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let walk = folder.path + "/walk.jsonl"
    let simulated = try run(
      ["simulate", "--scene", scene, "--seed", "\(seed)", "--duration", "\(duration)", "-o", walk] + options)
    #expect(simulated.status == 0, "\(simulated.stderr)", sourceLocation: sourceLocation)
    return walk
  }

  /// Ignores SIGPIPE in the test process, once.
  private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

  /// The package's root folder, found from this source file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
