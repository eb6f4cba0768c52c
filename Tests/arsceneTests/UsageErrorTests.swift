import ARTestSupport
import Foundation
import Testing

/// Every option value is parsed before a command runs: a bad one, or one the chosen mode does not
/// take, is a usage error (exit code 64) naming the option, and nothing is written.
@Suite("Usage errors")
struct UsageErrorTests {
  static let camera = [
    "--size", "64,48", "--intrinsics", "60,60,32,24", "--world-from-camera",
    "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0.5,1",
  ]

  @Test(
    "bad option values and options of another mode exit 64 naming the option",
    arguments: [
      (["render", "Scenes/zavist.json", "--shading", "lambert"], "--shading applies to model mode"),
      (["render", "Scenes/zavist.json", "--every", "2"], "--every applies to recording mode"),
      (
        ["render", "--model", "Scenes/models/hand-right.obj", "--width", "10"] + camera,
        "--width applies to scene mode"
      ),
      (["render", "--model", "Scenes/models/hand-right.obj", "--shading", "bogus"] + camera, "--shading"),
      (
        [
          "render", "--recording", "r.jsonl", "--scene", "Scenes/zavist.json", "--frames", "f",
          "--depth-confidence", "bogus",
        ],
        "--depth-confidence"
      ),
      (["render", "Scenes/zavist.json", "--view", "0,10"], "--view"),
      (["validate", "w.jsonl", "--scene", "Scenes/zavist.json", "--gnss-tau", "-1"], "--gnss-tau"),
      (
        ["validate", "w.jsonl", "--scene", "Scenes/zavist.json", "--control-window", "0"], "--control-window"
      ),
      (["poi", "near", "--at", "50,14", "--radius", "-5", "x.geojson"], "--radius"),
      (["poi", "near", "--at", "91,14", "--radius", "5", "x.geojson"], "latitude 91.0"),
      (["poi", "near", "--at", "50,14", "x.geojson"], "--radius, --max or both"),
      (["poi", "near", "--at", "50,14", "--max", "1", "--threads", "0", "x.geojson"], "--threads"),
      (["geo", "distance", "50,14", "95,14"], "B '95,14'"),
      (["traj", "ape", "a.tum", "b.tum", "--align", "rigid"], "--align"),
      (["traj", "drift", "a.tum", "b.tum"], "--place-at"),
      (["traj", "drift", "a.tum", "b.tum", "--place-every", "0"], "--place-every"),
      (
        ["traj", "drift", "a.tum", "b.tum", "--place-at", "0", "--fisheye", "0,0,0,0"],
        "--intrinsics or --camera"
      ),
      (["marker", "detect", "x.png", "--intrinsics", "0,1,2,3"], "fx must be a positive"),
      (
        ["film", "apply", "x.png", "--preset", "warm-gold-200", "--tetrahedral", "-o", "y.png"],
        "--tetrahedral"
      ),
    ] as [([String], String)])
  func usageError(_ arguments: [String], _ message: String) throws {
    let folder = try TemporaryFolder()
    // Renders are given an output, so that only the option at fault is wrong.
    let output = arguments[0] == "render" ? ["-o", folder.path + "/out.png"] : []
    let outcome = try ArsceneRunner.run(arguments + output)
    #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
    #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("poi near --max without --radius: the nearest places, nearest first")
  func nearestWithoutRadius() throws {
    let places = Fixtures.path("places/ids.geojson")
    let nearest = try ArsceneRunner.run(["poi", "near", "--at", "50.0,14.2", "--max", "2", places])
    #expect(nearest.status == 0, "\(nearest.stderr)")
    let lines = nearest.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    let distances = try lines.map { line in
      let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return try #require(json["distance_m"] as? Double)
    }
    #expect(distances == distances.sorted())
    // The same two as the radius query that reaches just past the second.
    let within = try ArsceneRunner.run([
      "poi", "near", "--at", "50.0,14.2", "--radius", "\(distances[1] + 1)", places,
    ])
    #expect(within.stdout.split(separator: "\n").prefix(2) == lines.prefix(2))
  }

  /// The subcommand names listed under SUBCOMMANDS in a help text (up to its first blank line).
  static func subcommands(_ help: String) -> [String] {
    guard let start = help.range(of: "SUBCOMMANDS:\n") else { return [] }
    let listing = help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
      .prefix { !$0.isEmpty }
    return listing.compactMap { line in
      // A name starts its line after two spaces; a wrapped abstract is indented further.
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }.filter { $0 != "help" }
  }

  @Test("every command's help reads as prose: no source-code escapes (a stray backslash) in it")
  func helpTexts() throws {
    var commands: [[String]] = Self.subcommands(try ArsceneRunner.run(["--help"]).stdout).map { [$0] }
    #expect(commands.count > 10, "\(commands)")
    var checked = 0
    while let command = commands.popLast() {
      let help = try ArsceneRunner.run(command + ["--help"])
      #expect(help.status == 0, "\(command)")
      #expect(
        !help.stdout.contains("\\"), "arscene \(command.joined(separator: " ")) --help shows a backslash")
      if command.count < 3 { commands += Self.subcommands(help.stdout).map { command + [$0] } }
      checked += 1
    }
    #expect(checked > 30)
  }
}
