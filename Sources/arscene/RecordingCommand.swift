import ARMath
import ARRecording
import ArgumentParser

/// `arscene recording`: what a recorded session holds, and the same session in another format.
struct RecordingCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recording",
    abstract: "Read recorded AR sessions (\(RecordingFormat.titles)).",
    subcommands: [Info.self, Convert.self]
  )

  /// The input and how to read it: what `info` and `convert` share.
  struct Input: ParsableArguments {
    @Option(help: "The input's layout: \(RecordingFormat.fromNames) (default: from its name or contents).")
    var from: RecordingFormat?
    @Flag(help: "Skip bad records with a warning (counted in the output) instead of failing.")
    var lenient = false
    @Option(help: "Frames a second for a capture without times (transforms.json; default 30).")
    var fps: Double?
    @Option(
      parsing: .unconditional,
      help: "The frames' intrinsics FX,FY,CX,CY in pixels, over the recording's own.",
      transform: Pinhole<Double>.init(parsing:))
    var intrinsics: Pinhole<Double>?
    @OptionGroup var frameCamera: FrameCameraOptions

    @OptionGroup var references: ReferenceAccess

    func validate() throws {
      if let fps, !(fps > 0 && fps.isFinite && fps <= 100_000) {
        throw ValidationError("--fps: expected frames a second above 0, got \(fps)")
      }
    }

    func open(_ path: String, parallel: Bool = true) throws -> RecordingReader {
      do {
        return try RecordingReader(
          path: path, format: from, lenient: lenient, parallel: parallel, framesPerSecond: fps,
          camera: try frameCamera.stated(intrinsics: intrinsics))
      } catch {
        throw InputFailure(error)
      }
    }

    /// Prints what reading skipped, one line each, on standard error.
    func warn(_ warnings: [String], skipped: Int) {
      for w in warnings { FileHandleOutput.standardError.write("arscene: warning: \(w)\n") }
      if skipped > warnings.count {
        FileHandleOutput.standardError.write(
          "arscene: warning: \(skipped - warnings.count) more records skipped\n")
      }
    }
  }

  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "info",
      abstract: "Print a recording's streams, counts, duration, rates and gaps as JSON.",
      discussion: """
        Prints {"format":…,"source":…,"time_base":…,"start":s,"end":s,"duration":s,"records":n,\
        "skipped":n,"warnings":[…],"streams":{"pose":{"count":n,"start":s,"end":s,"rate_hz":…,\
        "median_interval":s,"gap_count":n,"gap_seconds":s,"longest_gaps":[{"from":s,"to":s,\
        "seconds":s}]},…}}. A gap is an interval longer than three median intervals of its stream.
        """)

    @Argument(help: "The recording: a .jsonl file, a trajectory file, or a recording folder.") var recording:
      String
    @OptionGroup var input: Input

    func run() throws {
      try reportingInputFailures {
        let reader = try input.open(recording)
        let summary: RecordingSummary
        do { summary = try RecordingSummary(reader) } catch { throw InputFailure(error) }
        input.warn(summary.warnings, skipped: summary.skipped)
        try JSONOutput.write(summary)
      }
    }
  }

  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "convert",
      abstract: "Convert a recording to ARScene's format or a trajectory file, by OUT's extension.",
      discussion: """
        OUT ending .jsonl gets ARScene's recording format (frame paths rewritten to stay right \
        from OUT's folder); .tum, .euroc.csv and .kitti get the camera poses alone. The file is \
        written atomically: on any error nothing is left at OUT. Prints {"written":n,\
        "skipped":n,"warnings":[…]}.
        """)

    @Argument(help: "The recording: a .jsonl file, a trajectory file, or a recording folder.") var input:
      String
    @Option(name: .shortAndLong, help: "The output file (.jsonl, .tum, .euroc.csv or .kitti).") var output:
      String
    @OptionGroup var reading: Input

    func run() throws {
      try reportingInputFailures {
        guard let target = RecordingConversion.Target(path: output) else {
          throw InputFailure(message: "\(output): expected a name ending .jsonl, .tum, .euroc.csv or .kitti")
        }
        let reader = try reading.open(input)
        let report: RecordingConversion.Report
        do { report = try RecordingConversion.convert(reader, to: output, target: target) } catch {
          throw InputFailure(error)
        }
        reading.warn(report.warnings, skipped: report.skipped)
        try JSONOutput.write(report)
      }
    }
  }
}
