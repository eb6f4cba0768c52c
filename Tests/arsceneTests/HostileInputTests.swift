import ARTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 67's cases end to end: what a hostile asset or a careless command line can make
/// `arscene` do. No file outside the asset's folder is read or leaked, no input or non-regular
/// file is replaced, and every crash class ends with one line and exit 2. Runs without the
/// suite's usual widening of references (`ARSCENE_ALLOW_PATH`), as a user's run would.
@Suite("Hostile inputs")
struct HostileInputTests {
  static let secret = "root:*:20228:0:99999:7:::SECRET-CONTENT"

  /// A folder holding `asset/` (where the hostile files go) and `secret.txt` beside it.
  static func site() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    try folder.write(secret + "\n", to: "secret.txt")
    try FileManager.default.createDirectory(atPath: folder.path + "/asset", withIntermediateDirectories: true)
    return folder
  }

  static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws
    -> ArsceneRunner.Outcome
  {
    try ArsceneRunner.run(
      arguments, stdin: stdin, timeout: 20,
      environment: ["ARSCENE_ALLOW_PATH": ""].merging(environment) { $1 })
  }

  static func expectRefused(
    _ outcome: ArsceneRunner.Outcome, naming text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(outcome.status == 2, "\(outcome.stderr)", sourceLocation: sourceLocation)
    #expect(outcome.stderr.contains(text), "\(outcome.stderr)", sourceLocation: sourceLocation)
    #expect(
      outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)", sourceLocation: sourceLocation)
    #expect(
      !outcome.stderr.contains("SECRET") && !outcome.stdout.contains("SECRET"), sourceLocation: sourceLocation
    )
  }

  static func triangleGLTF(imageURI: String, bufferURI: String? = nil) -> String {
    let buffer =
      bufferURI ?? "data:application/octet-stream;base64,"
      + Data(
        [
          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 128,
          63, 0, 0, 0, 0,
        ]
      ).base64EncodedString()
    return """
      {"asset":{"version":"2.0"},"images":[{"uri":"\(imageURI)","mimeType":"image/jpeg"}],
       "textures":[{"source":0}],"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],
       "buffers":[{"uri":"\(buffer)","byteLength":36}],"bufferViews":[{"buffer":0,"byteLength":36}],
       "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],
       "meshes":[{"primitives":[{"attributes":{"POSITION":0},"material":0}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}
      """
  }

  @Test(
    "a glTF's image or buffer URI outside its folder is refused, naming the pointer; nothing is written",
    arguments: [
      ("/ETC", nil, "/images/0/uri"), ("../secret.txt", nil, "/images/0/uri"),
      ("..%2Fsecret.txt", nil, "/images/0/uri"), ("%2E%2E/secret.txt", nil, "/images/0/uri"),
      ("tex.png", "../secret.txt", "/buffers/0/uri"), ("tex.png", "..%2fsecret.txt", "/buffers/0/uri"),
    ] as [(String, String?, String)])
  func gltfReferences(_ image: String, _ buffer: String?, _ pointer: String) throws {
    let folder = try Self.site()
    let uri = image == "/ETC" ? folder.path + "/secret.txt" : image
    let asset = try folder.write(Self.triangleGLTF(imageURI: uri, bufferURI: buffer), to: "asset/model.gltf")
    let output = folder.path + "/asset/out.glb"
    Self.expectRefused(try Self.run(["model", "convert", asset, "-o", output]), naming: pointer)
    #expect(!FileManager.default.fileExists(atPath: output))
    Self.expectRefused(try Self.run(["model", "stats", asset]), naming: pointer)
  }

  @Test("an OBJ's mtllib or an MTL's map_Kd outside the folder: refused, strict and lenient alike")
  func objReferences() throws {
    let folder = try Self.site()
    let triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
    let absolute = try folder.write("mtllib \(folder.path)/secret.txt\n" + triangle, to: "asset/a.obj")
    let climbing = try folder.write("mtllib ../secret.txt\n" + triangle, to: "asset/b.obj")
    try folder.write("newmtl m\nmap_Kd ../secret.txt\n", to: "asset/c.mtl")
    let texture = try folder.write("mtllib c.mtl\nusemtl m\n" + triangle, to: "asset/c.obj")
    for obj in [absolute, climbing, texture] {
      for lenient in [[], ["--lenient"]] {
        Self.expectRefused(
          try Self.run(["obj", "stats", obj] + lenient), naming: "outside the file's folder")
      }
    }
  }

  @Test("a link inside the folder that leads outside is refused; --allow-path DIR widens the reach")
  func linksAndAllowPath() throws {
    let folder = try Self.site()
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/asset/lib.mtl", withDestinationPath: folder.path + "/secret.txt")
    let obj = try folder.write("mtllib lib.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", to: "asset/l.obj")
    Self.expectRefused(try Self.run(["obj", "stats", obj]), naming: "through a symbolic link")
    try folder.write("newmtl shared\nKd 1 0 0\n", to: "library/shared.mtl")
    let widened = try folder.write(
      "mtllib ../library/shared.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl shared\nf 1 2 3\n", to: "asset/w.obj")
    Self.expectRefused(try Self.run(["obj", "stats", widened]), naming: "../library/shared.mtl")
    let allowed = try Self.run(["obj", "stats", widened, "--allow-path", folder.path + "/library"])
    #expect(allowed.status == 0 && allowed.stdout.contains("shared"), "\(allowed.stderr)")
    let fromEnvironment = try Self.run(
      ["obj", "stats", widened], environment: ["ARSCENE_ALLOW_PATH": folder.path + "/library"])
    #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
    let missing = try Self.run(["obj", "stats", widened, "--allow-path", folder.path + "/nowhere"])
    #expect(missing.status == 64 && missing.stderr.contains("no such folder"))
  }

  @Test(
    "a USD layer naming a layer above its folder is refused; --allow-path DIR lets a kit's shared layers in")
  func usdLayersAndAllowPath() throws {
    let folder = try Self.site()
    try folder.write(
      "#usda 1.0\n(\n    defaultPrim = \"Wheel\"\n)\ndef Cube \"Wheel\"\n{\n}\n", to: "kit/wheel.usda")
    let car = try folder.write(
      "#usda 1.0\ndef \"Car\" (\n    prepend references = @../kit/wheel.usda@\n)\n{\n}\n",
      to: "asset/car.usda")
    Self.expectRefused(try Self.run(["model", "stats", car]), naming: "../kit/wheel.usda")
    let shadow = try folder.write(
      "#usda 1.0\n(\n    subLayers = [@../secret.txt@]\n)\n", to: "asset/shadow.usda")
    Self.expectRefused(try Self.run(["model", "stats", shadow]), naming: "--allow-path")
    let allowed = try Self.run(["model", "stats", car, "--allow-path", folder.path + "/kit"])
    #expect(allowed.status == 0 && allowed.stdout.contains("\"triangles\" : 12"), "\(allowed.stderr)")
  }

  @Test("a scene's model, background and points outside its folder: refused, naming the field")
  func sceneReferences() throws {
    let folder = try Self.site()
    let base = try String(
      contentsOfFile: ArsceneRunner.packageRoot.path + "/Scenes/zavist.json", encoding: .utf8)
    let hostile = base.replacingOccurrences(of: "\"models/zavist-ground.obj\"", with: "\"/etc/hostname\"")
    let scene = try folder.write(hostile, to: "asset/scene.json")
    Self.expectRefused(
      try Self.run(["render", scene, "-o", folder.path + "/asset/out.png"]), naming: ".model: '/etc/hostname'"
    )
    #expect(!FileManager.default.fileExists(atPath: folder.path + "/asset/out.png"))
  }

  @Test("every shipped scene renders with references confined (its models are beside it)")
  func shippedScenes() throws {
    let output = try TemporaryFolder()
    let scenes = try FileManager.default.contentsOfDirectory(
      atPath: ArsceneRunner.packageRoot.path + "/Scenes"
    )
    .filter { $0.hasSuffix(".json") }
    #expect(scenes.count >= 7)
    for name in scenes {
      let outcome = try Self.run([
        "render", "Scenes/" + name, "-o", output.path + "/\(name).png", "--width", "64", "--height", "48",
        "--samples", "1",
      ])
      #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
    }
  }

  @Test("outputs: a device, a FIFO and a link are left as they are; an input is never overwritten")
  func outputs() throws {
    let folder = try Self.site()
    let obj = try folder.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", to: "t.obj")
    #expect(mkfifo(folder.path + "/fifo.obj", 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/link.obj", withDestinationPath: "gone.obj")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/alias.obj", withDestinationPath: "t.obj")
    for (target, words) in [
      ("/dev/null", "not a regular file (a character device)"), (folder.path + "/fifo.obj", "(a FIFO)"),
      (folder.path + "/link.obj", "(a symbolic link)"), (obj, "is one of this run's inputs"),
    ] {
      Self.expectRefused(try Self.run(["obj", "convert", obj, target]), naming: words)
    }
    Self.expectRefused(try Self.run(["obj", "convert", folder.path + "/alias.obj", obj]), naming: "inputs")
    var status = stat()
    #expect(lstat(folder.path + "/fifo.obj", &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    #expect(lstat(folder.path + "/link.obj", &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    #expect(lstat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    #expect(try String(contentsOfFile: obj, encoding: .utf8).hasPrefix("v 0 0 0"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.contains(".tmp")
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  @Test("a scene rendered onto itself and a recording validated onto itself are refused, unchanged")
  func ownInputs() throws {
    let folder = try TemporaryFolder()
    let scene = folder.path + "/zavist.json"
    try FileManager.default.copyItem(atPath: "Scenes/zavist.json", toPath: scene)
    try FileManager.default.createSymbolicLink(
      atPath: folder.path + "/models", withDestinationPath: ArsceneRunner.packageRoot.path + "/Scenes/models")
    let before = try Data(contentsOf: URL(fileURLWithPath: scene))
    let render = try ArsceneRunner.run(["render", scene, "-o", scene, "--width", "32", "--height", "24"])
    #expect(render.status == 2 && render.stderr.contains("is one of this run's inputs"), "\(render.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: scene)) == before)
    let (recording, _) = try RenderRecordingTests.recording(in: folder)
    let recorded = try Data(contentsOf: URL(fileURLWithPath: recording))
    for output in ["--json", "--html"] {
      let validate = try ArsceneRunner.run(["validate", recording, "--scene", scene, output, recording])
      #expect(
        validate.status == 2 && validate.stderr.contains("is one of this run's inputs"), "\(validate.stderr)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: recording)) == recorded)
    }
  }

  @Test("a replaced file keeps its 0600 mode; a new one follows the umask")
  func modes() throws {
    let folder = try TemporaryFolder()
    let obj = try folder.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", to: "t.obj")
    let existing = try folder.write("old", to: "private.obj")
    #expect(chmod(existing, 0o600) == 0)
    #expect(try ArsceneRunner.run(["obj", "convert", obj, existing]).status == 0)
    #expect(try OutputModes.mode(existing) == 0o600)
    let fresh = folder.path + "/fresh.obj"
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = [
      "-c", "umask 077 && exec \"$0\" obj convert \"$1\" \"$2\"", ArsceneRunner.executable.path, obj, fresh,
    ]
    try shell.run()
    shell.waitUntilExit()
    #expect(shell.terminationStatus == 0)
    #expect(try OutputModes.mode(fresh) == 0o600)
  }

  @Test("a one-character output name (on which Foundation traps) and '-' (standard output)")
  func shortOutputNames() throws {
    let folder = try TemporaryFolder()
    let obj = try folder.write("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", to: "t.obj")
    let short = try ArsceneRunner.run(
      ["obj", "convert", obj, "x"], directory: URL(fileURLWithPath: folder.path))
    #expect(
      short.status == 0 && FileManager.default.fileExists(atPath: folder.path + "/x"), "\(short.stderr)")
    let piped = try ArsceneRunner.run([
      "render", "Scenes/zavist.json", "-o", "-", "--width", "32", "--height", "24",
    ])
    #expect(piped.status == 0 && piped.stdout.hasPrefix("\u{FFFD}PNG"), "\(piped.stderr)")
  }

  @Test("a file name with a newline or a bidirectional override is escaped: the error stays one line")
  func escapedNames() throws {
    let folder = try TemporaryFolder()
    let name = folder.path + "/evil\nname\u{202E}gpj.obj"
    let outcome = try Self.run(["obj", "stats", name])
    #expect(outcome.status == 2 && outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    #expect(outcome.stderr.contains("evil\\nname\\u{202e}gpj.obj"), "\(outcome.stderr)")
  }

  @Test("CRLF and CR-only text reads as text: an MTL's materials, an OBJ's vertices")
  func lineEndings() throws {
    let folder = try TemporaryFolder()
    try folder.write("newmtl red\r\nKd 1 0 0\r\n", to: "crlf.mtl")
    let crlf = try folder.write(
      "mtllib crlf.mtl\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nusemtl red\r\nf 1 2 3\r\n", to: "crlf.obj")
    let stats = try Self.run(["obj", "stats", crlf])
    #expect(stats.status == 0 && stats.stdout.contains("\"red\""), "\(stats.stderr)")
    try folder.write("newmtl old\rKd 0 1 0\r", to: "cr.mtl")
    let cr = try folder.write("mtllib cr.mtl\rv 0 0 0\rv 1 0 0\rv 0 1 0\rusemtl old\rf 1 2 3\r", to: "cr.obj")
    let old = try Self.run(["obj", "stats", cr])
    #expect(
      old.status == 0 && old.stdout.contains("\"vertices\" : 3") && old.stdout.contains("\"old\""),
      "\(old.stderr)")
  }

  @Test("crash classes end with one line and exit 2: nesting, a huge face, an image past the budget")
  func crashClasses() throws {
    let folder = try TemporaryFolder()
    var usda = "#usda 1.0\n"
    for i in 0..<10_000 { usda += "def Xform \"p\(i)\" {\n" }
    usda += String(repeating: "}\n", count: 10_000)
    let prims = try folder.write(usda, to: "deep.usda")
    Self.expectRefused(try Self.run(["model", "stats", prims]), naming: "nested more than 128 levels deep")
    let tuples = try folder.write(
      "#usda 1.0\ndef Mesh \"m\" {\n point3f[] points = " + String(repeating: "(", count: 100_000)
        + String(repeating: ")", count: 100_000) + "\n}\n", to: "tuples.usda")
    Self.expectRefused(try Self.run(["model", "stats", tuples]), naming: "nested more than 128 levels deep")
    let face = try folder.write(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf " + Array(repeating: "1 2 3", count: 100_000).joined(separator: " ")
        + "\n",
      to: "face.obj")
    Self.expectRefused(
      try Self.run(["obj", "stats", face]), naming: "face.obj:4:1: a face of more than 4096 corners")
    let image = Fixtures.path("images/gradient.jpg")
    let budget = try Self.run(["marker", "detect", image], environment: ["ARSCENE_MAX_IMAGE_PIXELS": "100"])
    Self.expectRefused(budget, naming: "more pixels than the image budget of 100 ")
    let webp = try Self.run(
      ["marker", "detect", Fixtures.path("images/webp/test-lossy.webp")],
      environment: ["ARSCENE_MAX_IMAGE_PIXELS": "100"])
    Self.expectRefused(webp, naming: "256x256 is more pixels than the image budget of 100 ")
  }

  @Test("an over-long line on standard input is an error naming it, not a quiet end")
  func longStandardInputLine() throws {
    let line = String(repeating: "1", count: (64 << 20) + 10)
    let outcome = try Self.run(
      ["undistort", "--intrinsics", "1000,990,960,720", "--distortion", "0.1,0,0,0"],
      stdin: "1 2\n" + line + "\n3 4\n")
    Self.expectRefused(outcome, naming: "stdin: line 2 is longer than 64 MiB")
  }

  @Test("a closed or full standard error never kills the process by a signal")
  func closedStandardError() throws {
    let folder = try TemporaryFolder()
    let bad = try folder.write("v 0 0\n", to: "bad.obj")
    for redirect in ["2>&-", "2>/dev/full"] {
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = [
        "-c", "exec \"$0\" obj stats \"$1\" \(redirect)", ArsceneRunner.executable.path, bad,
      ]
      shell.standardOutput = FileHandle.nullDevice
      try shell.run()
      shell.waitUntilExit()
      #expect(shell.terminationReason == .exit && shell.terminationStatus == 2, "\(redirect)")
    }
  }
}

/// The permission bits of a file, for the mode tests.
enum OutputModes {
  static func mode(_ path: String) throws -> mode_t {
    var status = stat()
    guard stat(path, &status) == 0 else { throw CocoaError(.fileNoSuchFile) }
    return status.st_mode & 0o7777
  }
}

/// A run stopped by a signal (a scheduler's cancel, Ctrl-C, a closed terminal) removes its
/// temporary files and stops ffmpeg before it goes.
@Suite("Stopped runs")
struct StoppedRunTests {
  @Test(
    "SIGTERM, SIGINT and SIGHUP mid-video: no temporary file, no video, no ffmpeg left",
    arguments: [SIGTERM, SIGINT, SIGHUP])
  func stopped(_ signal: Int32) throws {
    let folder = try TemporaryFolder()
    let (recording, _) = try RenderRecordingTests.recording(in: folder)
    let output = try TemporaryFolder()
    let process = Process()
    process.executableURL = ArsceneRunner.executable
    process.arguments = [
      "render", "--recording", recording, "--scene", "Scenes/zavist.json", "--video", output.path + "/v.mp4",
      "--frames", output.path + "/frames", "--samples", "64",
    ]
    process.currentDirectoryURL = ArsceneRunner.packageRoot
    process.standardOutput = FileHandle.nullDevice
    let errors = output.path + "/stderr.txt"
    _ = FileManager.default.createFile(atPath: errors, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    try process.run()
    // Wait for the video's temporary file (ffmpeg is running then), then stop the run.
    let deadline = Date(timeIntervalSinceNow: 60)
    var temporary: String?
    while temporary == nil && process.isRunning && Date() < deadline {
      temporary = try FileManager.default.contentsOfDirectory(atPath: output.path).first {
        $0.contains(".tmp")
      }
      if temporary == nil { usleep(20_000) }
    }
    let name = try #require(temporary, "the run ended before its video started")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    #expect(
      process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
      "status \(process.terminationStatus), standard error: \(said)")
    let left = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0 != "stderr.txt" }
    #expect(!left.contains { $0.contains(".tmp") || $0 == "v.mp4" }, "\(left)")
    let frames = (try? FileManager.default.contentsOfDirectory(atPath: output.path + "/frames")) ?? []
    #expect(!frames.contains { $0.contains(".tmp") }, "\(frames)")
    // A stopped child can take a moment to leave the process table on a loaded machine.
    let gone = Date(timeIntervalSinceNow: 5)
    while Self.anyProcessMentions(name) && Date() < gone { usleep(50_000) }
    #expect(!Self.anyProcessMentions(name), "an ffmpeg writing \(name) is still running")
  }

  /// Whether a running process's command line holds `text`.
  static func anyProcessMentions(_ text: String) -> Bool {
    let pids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return pids.contains { pid in
      guard Int(pid) != nil, let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else {
        return false
      }
      return String(decoding: line, as: UTF8.self).contains(text)
    }
  }
}
