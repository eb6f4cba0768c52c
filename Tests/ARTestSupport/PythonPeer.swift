import Foundation

/// Runs a Python oracle: a script with the packages Tools/test installs into
/// `.build/peers/<name>` (evo, jsonschema) on its path.
public enum PythonPeer {
  /// The package's root folder.
  public static let packageRoot = URL(fileURLWithPath: Fixtures.root).deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// Runs `script` with `arguments` (and `stdin` as its standard input); `packages` names the
  /// `.build/peers` folder to import from.
  public static func run(_ script: String, arguments: [String] = [], stdin: String? = nil, packages: String)
    throws -> (status: Int32, output: String)
  {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = ["-c", script] + arguments
    python.environment = ["PYTHONPATH": packageRoot + "/.build/peers/" + packages]
    let pipe = Pipe()
    (python.standardOutput, python.standardError) = (pipe, pipe)
    let input = Pipe()
    if stdin != nil { python.standardInput = input }
    try python.run()
    if let stdin {
      input.fileHandleForWriting.write(Data(stdin.utf8))
      try input.fileHandleForWriting.close()
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExitPromptly()
    return (python.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Runs the script file `path` with `arguments` (standard output only: errors go to the
  /// test's log), importing from the `.build/peers` folders `packages` names.
  public static func runScript(_ path: String, arguments: [String] = [], packages: [String] = []) throws -> (
    status: Int32, output: String
  ) {
    let python = Process()
    python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    python.arguments = [path] + arguments
    if !packages.isEmpty {
      var environment = ProcessInfo.processInfo.environment
      environment["PYTHONPATH"] = packages.map { packageRoot + "/.build/peers/" + $0 }.joined(separator: ":")
      python.environment = environment
    }
    let pipe = Pipe()
    python.standardOutput = pipe
    try python.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    python.waitUntilExitPromptly()
    return (python.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
