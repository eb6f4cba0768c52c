import Testing

/// `arscene project` end to end: stdout, stderr and exit codes.
@Suite("arscene project")
struct ProjectCommandTests {
  static let identity = "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1"
  static let camera = ["project", "--intrinsics", "500,500,320,240", "--size", "640,480"]

  @Test("projects points in front, outside and behind an ARKit camera")
  func projects() throws {
    let outcome = try ArsceneRunner.run(
      Self.camera + ["--world-from-camera", Self.identity],
      stdin: "0 0 -5\n1,1,-5\n# a comment\n\n0 0 5\n100 0 -1\n")
    #expect(outcome.status == 0)
    #expect(outcome.stderr == "")
    #expect(
      outcome.stdout == """
        320.000000 240.000000 5.000000 inside
        420.000000 140.000000 5.000000 inside
        nan nan nan behind
        50320.000000 240.000000 1.000000 outside

        """)
  }

  @Test("a pose in the OpenCV convention looks down +Z")
  func openCVConvention() throws {
    // Camera 2 m out along the world's +X axis, looking back at the origin: its +Z (forward) is
    // world −X, its +Y (image down) is world −Y, so world +Y appears above the image centre.
    let worldFromCamera = "0,0,-1,0, 0,-1,0,0, -1,0,0,0, 2,0,0,1"
    let outcome = try ArsceneRunner.run(
      Self.camera + ["--world-from-camera", worldFromCamera, "--convention", "opencv", "--decimals", "3"],
      stdin: "0 0 0\n0 0.5 0\n")
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "320.000 240.000 2.000 inside\n320.000 115.000 2.000 inside\n")
  }

  @Test(
    "bad input names the place and exits 2 without output; a bad option exits 64",
    arguments: [
      ("1 2\n", Self.identity, "arscene: stdin:1: expected 3 numbers, got 2\n"),
      ("0 0 -1\n1 2 x\n", Self.identity, "arscene: stdin:2: field 3 'x' is not a number\n"),
      ("1 nan 2\n", Self.identity, "arscene: stdin:1: field 2 'nan' is not a finite number\n"),
      (
        "", "1,0,0,0,0,1,0,0,0,0,1,0,0,0,0",
        "Error: The value '1,0,0,0,0,1,0,0,0,0,1,0,0,0,0' is invalid for '--world-from-camera <world-from-camera>': expected 16 numbers, got 15\n"
      ),
      (
        "", "2,0,0,0,0,2,0,0,0,0,2,0,0,0,0,1",
        "Error: --world-from-camera: the rotation part is not orthonormal (|RᵀR − I| up to 3.0)\n"
      ),
    ])
  func badInput(stdin: String, pose: String, message: String) throws {
    let outcome = try ArsceneRunner.run(Self.camera + ["--world-from-camera", pose], stdin: stdin)
    let usage = message.hasPrefix("Error: ")
    #expect(outcome.status == (usage ? 64 : 2))
    // A usage error's first line says what is wrong; ArgumentParser adds the option's help.
    #expect(usage ? outcome.stderr.hasPrefix(message) : outcome.stderr == message, "\(outcome.stderr)")
    #expect(!outcome.stdout.contains("nan nan") && !outcome.stdout.contains("x"))
  }

  @Test("bad intrinsics and sizes are refused")
  func badCamera() throws {
    for (intrinsics, size, message) in [
      (
        "0,500,320,240", "640,480",
        "'--intrinsics <intrinsics>': fx must be a positive finite number of pixels\n"
      ),
      ("500,500,320", "640,480", "'--intrinsics <intrinsics>': expected 4 numbers, got 3\n"),
      (
        "500,500,320,240", "0,480",
        "'--size <size>': width and height must be whole numbers of pixels, at least 1\n"
      ),
      (
        "500,500,320,240", "2000000,480", "--size: width and height must be whole numbers from 1 to 1048576\n"
      ),
    ] {
      let outcome = try ArsceneRunner.run(
        ["project", "--intrinsics", intrinsics, "--size", size, "--world-from-camera", Self.identity])
      #expect(outcome.status == 64)
      #expect(outcome.stderr.hasPrefix("Error: ") && outcome.stderr.contains(message), "\(outcome.stderr)")
    }
  }

  @Test("--help documents the output format")
  func help() throws {
    let outcome = try ArsceneRunner.run(["project", "--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("u v depth status"))
  }
}
