import ARFiles
import ArgumentParser
import Foundation

/// A time limit on the commands that render or replay, proportional to their work, so that
/// nothing a file says can keep arscene running for ever.
///
/// Every loop is bounded by its input (the label placement too), so the limit is a backstop: a
/// command gets two minutes plus 20 µs a pixel sample it renders and 2 µs a byte it reads, about
/// a hundred times what this machine needs; a recording's replay gets that again for each frame
/// it finishes. When time runs out, the files being written are removed, the reason goes to
/// standard error, and arscene exits with 2 (bad input). `ARSCENE_TIME_LIMIT=SECONDS` sets a
/// fixed limit instead (0: none).
enum CommandTimeLimit {
  /// Seconds every command gets before its work is counted.
  static let base = 120.0
  /// Seconds a pixel sample rendered and a byte read add.
  static let perPixelSample = 20e-6, perByte = 2e-6

  private static let lock = NSLock()
  nonisolated(unsafe) private static var deadline: Date?
  nonisolated(unsafe) private static var work = ""
  nonisolated(unsafe) private static var fixed = false

  /// The budget of `pixelSamples` rendered and `bytes` read, seconds.
  static func budget(pixelSamples: Double = 0, bytes: Double = 0) -> Double {
    base + perPixelSample * Swift.max(pixelSamples, 0) + perByte * Swift.max(bytes, 0)
  }

  /// Starts the limit of `what` (named in the message) at `seconds` from now, unless the
  /// environment fixes another.
  static func start(
    _ what: String, seconds: Double, environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    var limit = seconds
    if let text = environment["ARSCENE_TIME_LIMIT"], let value = Double(text), value >= 0, value.isFinite {
      guard value > 0 else { return }
      limit = value
      lock.withLock { fixed = true }
    }
    let started = lock.withLock {
      let first = deadline == nil
      deadline = Date(timeIntervalSinceNow: limit)
      work = what
      return first
    }
    guard started else { return }
    Thread.detachNewThread { watch() }
  }

  /// Starts the limit of a command that reads `files` (models, scenes): the base time plus the
  /// time their bytes buy, so a hostile file (a face made to defeat the triangulator, say)
  /// cannot keep it running for ever.
  static func start(_ what: String, reading files: [String]) {
    start(what, seconds: budget(bytes: files.map(size(of:)).reduce(0, +)))
  }

  /// Starts the default limit of any command, before it runs: the base time plus what the
  /// files and folders its arguments name buy. A command with a budget of its own (`render`,
  /// `validate`, …) starts that instead when it knows its work; a command that streams
  /// standard input (``StreamsStandardInput``) gets none, its work being as long as its input.
  static func startDefault(for command: any ParsableCommand, arguments: [String] = CommandLine.arguments) {
    guard !(command is StreamsStandardInput) else { return }
    let name = type(of: command).configuration.commandName ?? "arscene"
    let files = arguments.dropFirst().filter { FileManager.default.fileExists(atPath: $0) }
    start("arscene \(name)", reading: files)
  }

  /// More time for work done: the deadline moves to at least `seconds` from now (not under a
  /// fixed limit).
  static func extend(by seconds: Double) {
    lock.withLock {
      guard !fixed, let current = deadline else { return }
      deadline = Swift.max(current, Date(timeIntervalSinceNow: seconds))
    }
  }

  /// Checks the deadline four times a second; past it, stops the process.
  private static func watch() {
    while true {
      Thread.sleep(forTimeInterval: 0.25)
      let (expired, what) = lock.withLock { (deadline.map { $0 < Date() } ?? false, work) }
      guard expired else { continue }
      guard EarlyStop.begin() else { return }  // a signal is ending the process
      EarlyStop.cleanUp()
      FileHandleOutput.standardError.write(
        "arscene: \(what): stopped at its time limit, far beyond what its input should take (ARSCENE_TIME_LIMIT=SECONDS sets another; 0, none)\n"
      )
      exit(2)
    }
  }

  /// The bytes of a file, or of every file in a folder (recursively): what reading it costs.
  static func size(of path: String) -> Double {
    let files = FileManager.default
    var isDirectory: ObjCBool = false
    guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { return 0 }
    guard isDirectory.boolValue else {
      return ((try? files.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.doubleValue ?? 0
    }
    var total = 0.0
    let enumerator = files.enumerator(atPath: path)
    while let name = enumerator?.nextObject() as? String {
      total +=
        ((try? files.attributesOfItem(atPath: path + "/" + name))?[.size] as? NSNumber)?.doubleValue ?? 0
    }
    return total
  }
}

/// A command whose work is a stream of standard input's lines (`project`, `undistort`, `geo
/// to-enu`, `crs convert`): each line's work is bounded, the whole as long as the input, so no
/// time limit applies to it.
protocol StreamsStandardInput {}
