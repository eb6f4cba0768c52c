import ARFiles
import ARRecording
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
      alignment) and, against the recording's truth, reports for each of the scene's \
      geo-anchors the position error (m), heading error (deg) and image error (px) of the \
      fused placement, the 1-sigma it claimed and how often the truth was within it, the same \
      for a placement from the latest fix and compass alone; the fraction of fixes within their \
      reported accuracy; and the fused trajectory's APE and RPE. Prints the summary as JSON; \
      --json writes it with the errors over time and the tracks, --html a self-contained report.
      """)

  @Argument(help: "The recording (any layout arscene recording reads).") var recording: String
  @Option(help: "The scene file (its geo.origin and geo-anchored objects).") var scene: String
  @Option(help: "Write the full report (with the errors over time) as JSON here.") var json: String?
  @Option(help: "Write a self-contained HTML report here.") var html: String?
  @Option(help: "Seconds over which GNSS errors stay correlated (widens the claimed uncertainty).")
  var gnssTau: Double = 60
  @OptionGroup var input: RecordingCommand.Input

  func run() throws {
    try reportingInputFailures {
      guard gnssTau >= 0, gnssTau.isFinite else { throw InputFailure(message: "--gnss-tau: expected seconds ≥ 0") }
      let geoSite: SceneGeoSite
      do { geoSite = try SceneGeoSite.load(path: scene) } catch { throw InputFailure(error) }
      let reader = try input.open(recording)
      var assumptions = PhoneErrorModel()
      assumptions.gpsMarkovTau = gnssTau
      var validator = AnchorValidator(site: GeoSite(frame: geoSite.frame, anchors: geoSite.anchors), assumptions: assumptions)
      do { try reader.forEach { validator.consume($0) } } catch { throw InputFailure(error) }
      input.warn(reader.warnings, skipped: reader.skipped)
      let report = validator.report(source: reader.header.source, skipped: reader.skipped)
      if let json {
        do { try FileIO.writeAtomically(Array(try JSONOutput.encoded(report).utf8), to: json) } catch {
          throw InputFailure(error)
        }
      }
      if let html {
        do { try FileIO.writeAtomically(Array(ValidationHTMLReport(report).html.utf8), to: html) } catch {
          throw InputFailure(error)
        }
      }
      try JSONOutput.write(report.summary)
    }
  }
}
