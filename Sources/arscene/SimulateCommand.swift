import ARRecording
import ARScene
import ArgumentParser

/// `arscene simulate`: a recorded session with its truth, drawn from a phone's error model.
struct SimulateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Simulate a phone's AR session walking among a scene's geo-anchors, with the truth.",
    discussion: """
      Writes ARScene's recording format (docs/recordings.md): camera poses from drifting \
      visual-inertial odometry, frames, GNSS fixes (white noise, a Gauss-Markov wander, \
      multipath jumps, outages; the accuracy a 68% radius), compass headings (bias, noise, \
      disturbances), and the truth. The errors are a current phone's (ARRecording's \
      PhoneErrorModel documents each default and its source). The walk is --path's first \
      GeoJSON LineString, or a loop past every anchor. The same inputs give the same bytes.
      """)

  @Option(help: "The scene file (its geo.origin and geo-anchored objects).") var scene: String
  @Option(help: "The seed of every random draw.") var seed: UInt64
  @Option(help: "Seconds walked.") var duration: Double = 300
  @Option(help: "A GeoJSON file whose first LineString is the walk ([longitude, latitude]).") var path: String?
  @Option(name: .shortAndLong, help: "The recording to write (.jsonl).") var output: String

  func run() throws {
    try reportingInputFailures {
      guard duration > 0, duration <= 86_400 else {
        throw InputFailure(message: "--duration: expected seconds in (0, 86400], got \(duration)")
      }
      guard output.lowercased().hasSuffix(".jsonl") else {
        throw InputFailure(message: "\(output): a recording is written as .jsonl")
      }
      let geoSite: SceneGeoSite
      do { geoSite = try SceneGeoSite.load(path: scene) } catch { throw InputFailure(error) }
      let site = GeoSite(frame: geoSite.frame, anchors: geoSite.anchors)
      do {
        let walk = try path.map { try WalkPath.geoJSON(path: $0, frame: site.frame) } ?? WalkPath.tour(site)
        let simulator = SessionSimulator(site: site, path: walk, seed: seed, duration: duration)
        let writer = try RecordingWriter(path: output, header: simulator.header)
        try simulator.run { record throws(RecordingError) in try writer.write(record) }
        try writer.finish()
      } catch { throw InputFailure(error) }
    }
  }
}
