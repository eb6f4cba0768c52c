import ARFiles
import ARGeo
import ARMath
import ARRecording
import ARReplay
import ARScene
import ArgumentParser
import Foundation

/// `arscene validate`: how far a recording's geo-anchored content landed from where it should.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Replay a recording through the session alignment and report each geo-anchor's error.",
    discussion: """
      Replays REC as an app would (GPS fixes and camera poses into ARGeo's online session \
      alignment, the compass's yaw fused in) and, against the recording's truth, reports for \
      each of the scene's geo-anchors the position error (m), heading error (deg) and image \
      error (px) of the fused placement, the 1-sigma it claimed and how often the truth was \
      within it, the same for a placement from the latest fix and compass alone; the fraction \
      of fixes within their reported accuracy; and the fused trajectory's APE and RPE. Prints \
      the summary as JSON; --json writes it with the errors over time and the tracks, --html a \
      self-contained report.

      At scale: --manifest M lists recordings (one path a line); --shard I/N validates those \
      whose 0-based line index is I modulo N (auto/N takes I from JOB_COMPLETION_INDEX, \
      SLURM_ARRAY_TASK_ID, AWS_BATCH_JOB_ARRAY_INDEX or BATCH_TASK_INDEX; auto/auto takes N too \
      where the scheduler states it), printing {"shard":"I/N","recordings":[{"recording":…,"report":…}]} \
      (or writing it to --json). --merge SHARD.json… combines shards into one summary.
      """)

  @Argument(help: "The recording (any layout arscene recording reads); with --merge, the shards' JSON files.")
  var inputs: [String] = []
  @Option(help: "The scene file (its geo.origin and geo-anchored objects).") var scene: String?
  @Option(help: "Write the full report (with the errors over time) as JSON here.") var json: String?
  @Option(help: "Write a self-contained HTML report here.") var html: String?
  @Option(help: "Seconds over which GNSS errors stay correlated (widens the claimed uncertainty).")
  var gnssTau: Double = PhoneErrorModel().gpsMarkovTau
  @Option(help: "A file listing recordings to validate, one path a line (relative to it).") var manifest:
    String?
  @Option(
    help: "Which part of the manifest: I/N, auto/N, auto/auto or auto (from the scheduler's environment).",
    transform: { try ShardSelection(parsing: $0) })
  var shard: ShardSelection?
  @Flag(help: "Combine the shards' JSON files given as inputs into one summary.") var merge = false
  @Option(
    help: ArgumentHelp(
      "Threads (default: all cores): a manifest's recordings are validated this many at once, each on a thread of its own; a single recording is read on several threads unless this is 1. The report is the same for any count.",
      valueName: "n"))
  var threads: Int = ProcessInfo.processInfo.activeProcessorCount
  @Option(
    help: """
      A clicks file (t,name,u,v and optionally sigma_px, one click a line): the scene's \
      control_points a person found in the recording's frames. With them (and taps naming \
      control points) errors are measured on recordings without truth (truth_source control).
      """)
  var control: String?
  @Option(help: "Seconds of control sightings each evaluation's truth is fitted to.") var controlWindow:
    Double =
      30
  @OptionGroup var input: RecordingCommand.Input
  @OptionGroup var truthTrack: TruthTrackOptions

  /// Every option's range, before anything is read: a value out of range is a usage error.
  func validate() throws {
    guard (1...4096).contains(threads) else { throw ValidationError("--threads: expected 1 to 4096") }
    guard gnssTau >= 0, gnssTau.isFinite else { throw ValidationError("--gnss-tau: expected seconds ≥ 0") }
    guard controlWindow.isFinite, controlWindow > 0, controlWindow <= 86_400 else {
      throw ValidationError("--control-window: expected seconds in (0, 86400]")
    }
  }

  func run() throws {
    try reportingInputFailures {
      if merge { return try mergeShards() }
      guard let scene else { throw InputFailure(message: "--scene: needed to know the anchors") }
      let site: GeoSite
      do { site = try GeoSite.load(scene: scene) } catch { throw InputFailure(error) }
      if control != nil, site.controlPoints.isEmpty {
        throw InputFailure(message: "--control: \(scene) has no control_points for the clicks to name")
      }
      var assumptions = PhoneErrorModel()
      assumptions.gpsMarkovTau = gnssTau
      if let manifest { return try validateShard(manifest, site: site, assumptions: assumptions) }
      guard inputs.count == 1 else {
        throw InputFailure(message: "expected one recording (or --manifest, or --merge)")
      }
      var report = try validate(inputs[0], site: site, assumptions: assumptions, parallel: threads > 1)
      if let drift = try truthTrack.drift({ try input.open(inputs[0], parallel: threads > 1) }) {
        report.anchorDrift = drift
      }
      if let json { try write(try JSONOutput.encoded(report), to: json) }
      if let html { try write(ValidationHTMLReport(report).html, to: html) }
      try JSONOutput.write(report.summary)
    }
  }

  /// The report on the recording at `path`; `alone` when it is the command's only recording,
  /// which then sets the time limit and shows progress; `parallel` to read it on several
  /// threads.
  private func validate(
    _ path: String, site: GeoSite, assumptions: PhoneErrorModel, alone: Bool = true, parallel: Bool = true
  ) throws -> ValidationReport {
    if alone {
      CommandTimeLimit.start(
        "validate \(path)", seconds: CommandTimeLimit.budget(bytes: CommandTimeLimit.size(of: path)))
    }
    let control = try controlTruth(path, site: site)
    let reader = try input.open(path, parallel: parallel)
    let report: ValidationReport
    // Progress only for recordings big enough to take a while (over 8 Ki records).
    let progress = alone ? ProgressOutput("arscene: validating \(path)") : nil
    do {
      var started = false
      report = try AnchorValidator.validate(
        reader, site: site, assumptions: assumptions, control: control, drift: truthTrack.ownTruthPlacement
      ) {
        fraction in
        if fraction < 1 { started = true }
        if started { progress?.update(fraction) }
      }
    } catch {
      throw InputFailure(error)
    }
    input.warn(reader.warnings, skipped: reader.skipped)
    return report
  }

  /// The control truth of the recording at `path` (a pass of its own over it), when the scene
  /// has control points.
  private func controlTruth(_ path: String, site: GeoSite) throws -> ControlTruth? {
    guard !site.controlPoints.isEmpty else { return nil }
    let names = Set(site.controlPoints.map(\.name))
    do {
      let clicks = try control.map { try ControlClicks.read(path: $0, known: names) } ?? []
      let truth = try ControlTruth.collectFromFrames(
        try input.open(path), site: site, clicks: clicks, clicksPath: control ?? "clicks",
        window: controlWindow)
      if let truth, truth.unmatched > 0 {
        FileHandleOutput.standardError.write(
          "arscene: warning: \(truth.unmatched) control observations had no camera pose within 0.1 s\n")
      }
      return truth
    } catch let failure as InputFailure { throw failure } catch { throw InputFailure(error) }
  }

  private func validateShard(_ manifest: String, site: GeoSite, assumptions: PhoneErrorModel) throws {
    let selection = shard ?? .whole
    let paths: [String]
    do { paths = try ValidationManifest.read(path: manifest) } catch { throw InputFailure(error) }
    let chosen = paths.indices.filter { selection.contains($0) }
    CommandTimeLimit.start(
      "validate \(manifest)",
      seconds: CommandTimeLimit.budget(
        bytes: chosen.map { CommandTimeLimit.size(of: paths[$0]) }.reduce(0, +)))
    let command = self
    let result = try ValidationShard.validating(
      paths, selection: selection, threads: threads,
      starting: { i, path in
        FileHandleOutput.standardError.write("arscene: validating \(path) (\(i + 1) of \(paths.count))\n")
      }
    ) { path, parallel in
      try command.validate(path, site: site, assumptions: assumptions, alone: false, parallel: parallel)
    }
    if let json { try write(try JSONOutput.encoded(result), to: json) } else { try JSONOutput.write(result) }
  }

  private func mergeShards() throws {
    guard !inputs.isEmpty else { throw InputFailure(message: "--merge: give the shards' JSON files") }
    // One shard decoded at a time and dropped before the next is read: of each recording only
    // the numbers the statistics need stay in memory (its summary goes to the merge's spill
    // file), and of its file a digest, for comparing copies.
    var merge: ValidationMerge
    do { merge = try ValidationMerge() } catch { throw InputFailure(message: error.description) }
    for path in inputs {
      let bytes: [UInt8]
      do { bytes = try FileIO.read(path) } catch { throw InputFailure(error) }
      let shard: ValidationShard
      do { shard = try JSONDecoder().decode(ValidationShard.self, from: Data(bytes)) } catch {
        throw InputFailure(
          message:
            "\(path): not a validation shard: \(JSONDecodingFailure(error).field ?? "") \(JSONDecodingFailure(error).reason)"
        )
      }
      // A rerun task writes the same bytes (docs/SCALING.md): copies are compared as files.
      do { try merge.add(shard, from: path, json: bytes, encode: { try JSONOutput.bytes($0) }) } catch {
        throw InputFailure(message: error.description)
      }
    }
    let summary = merge.summary
    if !summary.missingShards.isEmpty {
      FileHandleOutput.standardError.write(
        "arscene: warning: shards missing: \(Self.runs(of: summary.missingShards))\n")
    }
    if !summary.duplicateShards.isEmpty {
      FileHandleOutput.standardError.write(
        "arscene: warning: shards given more than once (the same results; counted once): \(Self.runs(of: summary.duplicateShards))\n"
      )
    }
    if let json { try writeMerged(summary, merge, to: json) }
    try writeMerged(summary, merge, to: FileIO.standardOutput)
  }

  /// Shard names `I/N` for a message, consecutive ones as a run (`3/1000 to 999/1000, 997
  /// shards`), so that a merge missing thousands says so in a line.
  static func runs(of shards: [String]) -> String {
    var runs: [(first: Int, last: Int, count: String)] = []
    for name in shards {
      let parts = name.split(separator: "/")
      guard parts.count == 2, let i = Int(parts[0]) else { return shards.joined(separator: ", ") }
      if let last = runs.last, last.last + 1 == i, last.count == parts[1] {
        runs[runs.count - 1].last = i
      } else {
        runs.append((i, i, String(parts[1])))
      }
    }
    return runs.map { run in
      let span = run.last - run.first + 1
      if span == 1 { return "\(run.first)/\(run.count)" }
      if span == 2 { return "\(run.first)/\(run.count), \(run.last)/\(run.count)" }
      return "\(run.first)/\(run.count) to \(run.last)/\(run.count) (\(span) shards)"
    }.joined(separator: ", ")
  }

  /// Writes the merged report to `path` (`-`: standard output) as JSONOutput would encode it
  /// whole, its `per_recording` list streamed from `merge` one recording at a time.
  private func writeMerged(
    _ summary: ValidationBatchSummary, _ merge: borrowing ValidationMerge, to path: String
  ) throws {
    let text = try JSONOutput.encoded(summary)
    // The list is the top level's, the last key of its name (the keys are sorted, and the ones
    // after it hold numbers and shard names); a name in a string would be escaped.
    let marker = #""per_recording":[]"#
    guard let range = text.range(of: marker, options: .backwards) else {
      throw InputFailure(message: "--merge: the report has no per_recording list to fill")
    }
    do {
      let writer = try AtomicFileWriter(path: path)
      try writer.write(String(text[..<range.lowerBound]) + #""per_recording":["#)
      var first = true
      try merge.writeRecordings { bytes in
        if !first { try writer.write(",") }
        first = false
        try writer.write(bytes: bytes)
      }
      try writer.write("]" + String(text[range.upperBound...]))
      try writer.commit()
    } catch let failure as InputFailure { throw failure } catch { throw InputFailure(error) }
  }

  private func write(_ text: String, to path: String) throws {
    do { try FileIO.writeAtomically(Array(text.utf8), to: path) } catch { throw InputFailure(error) }
  }
}
