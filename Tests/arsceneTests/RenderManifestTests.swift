import ARReplay
import ARTestSupport
import Foundation
import Testing

/// `arscene render --manifest`: overlays of many recordings as a batch, each task of an array
/// job drawing its share, every output written once and atomically, `--resume` doing only
/// what is missing.
@Suite("arscene render --manifest")
struct RenderManifestTests {
  /// Two recordings (the second named by an absolute path, the first relative to the manifest)
  /// and a manifest in `folder` drawing the first to frames and a video, the second to frames.
  static func batch(in folder: TemporaryFolder, other: TemporaryFolder) throws -> String {
    _ = try RenderRecordingTests.recording(in: folder)
    let second = try RenderRecordingTests.recording(in: other).path
    let scene = FileManager.default.currentDirectoryPath + "/Scenes/zavist.json"
    let manifest = folder.path + "/batch.jsonl"
    try """
    # two walks at Závist
    {"recording": "walk.jsonl", "frames": "out/a", "video": "out/a.mp4"}

    {"recording": "\(second)", "scene": "\(scene)", "frames": "out/b"}
    """.write(toFile: manifest, atomically: true, encoding: .utf8)
    return manifest
  }

  /// Every file under `folder`, by its path relative to it, with its bytes.
  static func files(under folder: String) throws -> [String: Data] {
    var result: [String: Data] = [:]
    let names = FileManager.default.subpaths(atPath: folder) ?? []
    for name in names {
      var directory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &directory),
        !directory.boolValue
      else { continue }
      result[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
    }
    return result
  }

  @Test("two shards write what one process writes, byte for byte; --resume then does nothing")
  func shardsEqualOneRun() throws {
    let (folder, other) = (try TemporaryFolder(), try TemporaryFolder())
    let manifest = try Self.batch(in: folder, other: other)
    let base = ["render", "--manifest", manifest, "--scene", "Scenes/zavist.json", "--every", "3"]
    let whole = try ArsceneRunner.run(base + ["--threads", "1"])
    #expect(whole.status == 0, "\(whole.stderr)")
    let single = try Self.files(under: folder.path + "/out")
    // 25 frames at 2 Hz over 12 s, every third: 9 frames a recording, and a video.
    #expect(single.keys.filter { $0.hasPrefix("a/frame_") }.count == 9)
    #expect(single.keys.filter { $0.hasPrefix("b/frame_") }.count == 9)
    #expect(single["a.mp4"] != nil && single.count == 19)
    #expect(whole.stdout.contains(#""shard":"0/1""#) && whole.stdout.contains(#""video":"written""#))
    try FileManager.default.removeItem(atPath: folder.path + "/out")
    // The same batch as a Slurm array of two tasks would run it.
    for task in ["0", "1"] {
      let run = try ArsceneRunner.run(
        base + ["--shard", "auto"],
        environment: [
          "SLURM_ARRAY_TASK_ID": task, "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "2",
        ])
      #expect(run.status == 0, "\(run.stderr)")
      #expect(run.stdout.contains(#""shard":"\#(task)/2""#), "\(run.stdout)")
      #expect(run.stdout.contains(#""line":\#(task == "0" ? 2 : 4)"#), "\(run.stdout)")
    }
    #expect(
      try Self.files(under: folder.path + "/out") == single, "the shards' outputs differ from one run's")
    // Run again with --resume: every frame and the video are there, nothing is drawn.
    let again = try ArsceneRunner.run(base + ["--resume"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(
      again.stdout.contains(#""frames_kept":9,"frames_rendered":0,"line":2"#)
        && again.stdout.contains(#""video":"kept""#), "\(again.stdout)")
    // Without --resume the video is made again, and comes out the same.
    try FileManager.default.removeItem(atPath: folder.path + "/out/b/frame_000003.png")
    let redo = try ArsceneRunner.run(base)
    #expect(
      redo.status == 0 && redo.stdout.contains(#""frames_kept":8,"frames_rendered":1"#), "\(redo.stdout)")
    #expect(try Self.files(under: folder.path + "/out") == single)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path + "/out").allSatisfy {
        !$0.hasPrefix(".")
      },
      "a temporary file was left behind")
  }

  @Test(
    "a bad manifest line exits 2 naming the file, line and key, before anything is drawn",
    arguments: [
      (
        #"{"recording": "walk.jsonl", "frames": "out/a", "colour": "red"}"#,
        "batch.jsonl:2: colour: unknown key"
      ),
      (#"{"frames": "out/a"}"#, "batch.jsonl:2: recording: missing"),
      (#"{"recording": "walk.jsonl"}"#, "batch.jsonl:2: frames: missing: a line needs frames, video or both"),
      (#"{"recording": "walk.jsonl", "frames": 3}"#, "batch.jsonl:2: frames: expected an object of strings"),
      (#"{"recording": "walk.jsonl", "frames": "out/a""#, "batch.jsonl:2: line 1, column"),
      (
        #"{"recording": "walk.jsonl", "video": "out/a/"}"#,
        "/out/a/ is also line 1's output: each output must have one writer"
      ),
      (#"{"recording": "walk.jsonl", "frames": ""}"#, "batch.jsonl:2: frames: expected a path"),
    ])
  func badLine(line: String, message: String) throws {
    let folder = try TemporaryFolder()
    _ = try RenderRecordingTests.recording(in: folder)
    let manifest = folder.path + "/batch.jsonl"
    try (#"{"recording": "walk.jsonl", "frames": "out/a"}"# + "\n" + line + "\n")
      .write(toFile: manifest, atomically: true, encoding: .utf8)
    let run = try ArsceneRunner.run(["render", "--manifest", manifest, "--scene", "Scenes/zavist.json"])
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"), "a frame was drawn")
  }

  @Test("a line without a scene and no --scene: exit 2 naming the line; frame-only options are usage errors")
  func sceneAndUsage() throws {
    let folder = try TemporaryFolder()
    _ = try RenderRecordingTests.recording(in: folder)
    let manifest = folder.path + "/batch.jsonl"
    try #"{"recording": "walk.jsonl", "frames": "out/a"}"#.write(
      toFile: manifest, atomically: true, encoding: .utf8)
    let noScene = try ArsceneRunner.run(["render", "--manifest", manifest])
    #expect(
      noScene.status == 2 && noScene.stderr.contains("batch.jsonl:1: scene: missing"), "\(noScene.stderr)")
    for extra in [
      ["--frames", "x"], ["--video", "x.mp4"], ["-o", "x.png"], ["--recording", "walk.jsonl"],
    ] {
      let run = try ArsceneRunner.run(
        ["render", "--manifest", manifest, "--scene", "Scenes/zavist.json"] + extra)
      #expect(run.status == 64, "\(extra): \(run.stderr)")
    }
    let shard = try ArsceneRunner.run([
      "render", "--manifest", manifest, "--scene", "Scenes/zavist.json", "--shard", "2/2",
    ])
    #expect(shard.status == 64 || shard.status == 2, "\(shard.stderr)")
    #expect(shard.stderr.contains("shard 2 is outside 0..<2"), "\(shard.stderr)")
  }

  @Test(
    "an output that is the recording itself, or a frames folder that is a file: exit 2, the input untouched")
  func hostileOutputs() throws {
    let folder = try TemporaryFolder()
    let (recording, _) = try RenderRecordingTests.recording(in: folder)
    let before = try Data(contentsOf: URL(fileURLWithPath: recording))
    try Data("a file".utf8).write(to: URL(fileURLWithPath: folder.path + "/notafolder"))
    for (line, message) in [
      (#"{"recording": "walk.jsonl", "video": "walk.jsonl"}"#, "is one of this run's inputs"),
      (#"{"recording": "walk.jsonl", "frames": "notafolder"}"#, "notafolder"),
    ] {
      let manifest = folder.path + "/batch.jsonl"
      try line.write(toFile: manifest, atomically: true, encoding: .utf8)
      let run = try ArsceneRunner.run(["render", "--manifest", manifest, "--scene", "Scenes/zavist.json"])
      #expect(run.status == 2 && run.stderr.contains(message), "\(line): \(run.stderr)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: recording)) == before)
    #expect(try String(contentsOfFile: folder.path + "/notafolder", encoding: .utf8) == "a file")
  }

  @Test(
    "the library reads lines as written: comments and blank lines skipped, paths against the manifest's folder"
  )
  func library() throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/m.jsonl"
    try """
    # a comment
    {"recording": "r/a.jsonl", "frames": "out/a"}

      {"recording": "/data/b.jsonl", "scene": "s.json", "video": "/out/b.mp4"}
    """.write(toFile: path, atomically: true, encoding: .utf8)
    let manifest = try RenderManifest.read(path: path)
    #expect(
      manifest.entries == [
        .init(
          recording: folder.path + "/r/a.jsonl", scene: nil, frames: folder.path + "/out/a", video: nil,
          line: 2),
        .init(
          recording: "/data/b.jsonl", scene: folder.path + "/s.json", frames: nil, video: "/out/b.mp4",
          line: 4),
      ])
  }
}
