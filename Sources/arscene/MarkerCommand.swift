import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ARRecording
import ARReplay
import ARScene
import ArgumentParser
import Foundation

/// `arscene marker`: square fiducial markers.
struct MarkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "marker",
    abstract: "Square fiducial markers (ArUco, AprilTag): find them in images, print them.",
    subcommands: [Detect.self, Generate.self]
  )

  /// The `--dictionary` option's dictionary, or an error listing the known ones.
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "generate",
      abstract: "Write a printable marker PNG: the marker with its white quiet zone.",
      discussion: """
        Dictionaries: \(MarkerDictionary.all.map(\.name).joined(separator: ", ")). The marker's \
        cells are its reference implementation's bit for bit (OpenCV's cv2.aruco; the AprilTag \
        library's drawing). --pixels is the whole image's side; each pixel takes the cell under it \
        (nearest), so a multiple of the cells across (the data cells + 2 border + 2 quiet-zone \
        cells) gives whole cells. Written whole or not at all.
        """)

    @Option(help: "The dictionary.") var dictionary: MarkerDictionary?
    @Option(help: "A custom dictionary: the YAML file OpenCV's Dictionary::writeDictionary writes.")
    var dictionaryFile: String?
    @Option(help: "The marker's id.") var id: Int
    @Option(help: "The image's side, pixels.") var pixels: Int
    @Option(help: "White cells around the black border.") var quietZone: Int = 1
    @Option(name: .shortAndLong, help: "The PNG to write.") var output: String

    func validate() throws {
      guard (dictionary == nil) != (dictionaryFile == nil) else {
        throw ValidationError("give --dictionary NAME or --dictionary-file FILE, one of them")
      }
      guard (0...16).contains(quietZone) else {
        throw ValidationError("--quiet-zone: expected 0 to 16 cells")
      }
      guard pixels <= 16384 else { throw ValidationError("--pixels: at most 16384") }
    }

    func run() throws {
      try reportingInputFailures {
        let d = try MarkerDictionaryOptions.chosen(dictionary, file: dictionaryFile)
        do {
          try ImageFile.writePNG(
            try d.image(id: id, pixels: pixels, quietZone: quietZone), to: output, channels: .grey,
            compression: 6)
        } catch { throw InputFailure(message: "\(error)") }
      }
    }
  }

  struct Detect: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "detect",
      abstract: "Find a dictionary's markers in an image or a recording's frames; with a size, their poses.",
      discussion: """
        Prints {"markers":[{"id":n,"corners":[[x,y],…],"hamming":h,"bits_corrected":h,"decision_margin":m,"truncated":false,"corner_sigma_px":s,"pose":{…}}]}: \
        corners in the dictionary's order (top-left, top-right, bottom-right, bottom-left of the \
        marker as drawn) in ARScene's pixel convention (top-left origin, pixel centres at +0.5: \
        OpenCV's + 0.5), hamming and bits_corrected the bits corrected, decision_margin \
        AprilTag's (grey levels between the cells and their threshold), truncated true for a \
        marker running to the image's edge (its corners there estimated), corner_sigma_px the corners' 1-sigma \
        uncertainty per coordinate (from the edges' fit and width), pose both IPPE solutions as \
        arscene pose marker prints them (OpenCV camera convention), their covariance for that \
        sigma. An image without markers gives {"markers":[]}.
        With --recording REC instead of IMAGE: one JSON line per frame with an image, \
        {"frame":index,"time":seconds,"markers":[…]}, posed with each frame's own intrinsics \
        when --size is given (--intrinsics overrides them).
        """)

    @Argument(help: "The image (PNG, JPEG or WebP).") var image: String?
    @Option(help: "A recording (any format arscene reads): detect in each of its frames' images.")
    var recording: String?
    @Option(help: "The dictionary.") var dictionary = MarkerDictionary.named("aruco_4x4_50")!
    @Option(help: "A custom dictionary: the YAML file OpenCV's Dictionary::writeDictionary writes.")
    var dictionaryFile: String?
    @Option(
      parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels, for poses.",
      transform: Pinhole<Double>.init(parsing:))
    var intrinsics: Pinhole<Double>?
    @Option(help: "The markers' side, metres, for poses.") var size: Double?
    @Flag(help: "Look for white-on-black markers.") var inverted = false
    @Option(
      help: """
        A rig file (JSON: markers with id, size, translation, rotation_xyzw on the object): adds \
        "rig", the object's pose from all its markers seen. Needs intrinsics.
        """)
    var rig: String?
    @Option(
      help: ArgumentHelp(
        """
        A board (grid:COLSxROWS:MARKER:SEPARATION:DICTIONARY or \
        charuco:COLSxROWS:SQUARE:MARKER:DICTIONARY[:legacy], metres, legacy for OpenCV's pattern \
        before 4.6; its dictionary is the one searched): \
        adds "board", its markers, ChArUco chessboard corners and, with intrinsics, its pose from \
        every corner seen.
        """, valueName: "spec"))
    var board: String?
    @Option(
      help: ArgumentHelp(
        "Find ChArUco diamonds whose squares are RATIO times their markers' side (OpenCV's squareMarkerLengthRate): adds \"diamonds\".",
        valueName: "ratio"))
    var diamond: Double?
    @Option(
      help: ArgumentHelp(
        "With --recording: frames detected this many at once (default: all cores), the lines still in the recording's order.",
        valueName: "n"))
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount

    @OptionGroup var references: ReferenceAccess

    func validate() throws {
      guard (image == nil) != (recording == nil) else {
        throw ValidationError("give an IMAGE or --recording REC, not both or neither")
      }
      guard (1...4096).contains(threads) else { throw ValidationError("--threads: expected 1 to 4096") }
      if let board {
        do { _ = try MarkerBoard(specification: board) } catch { throw ValidationError("--board: \(error)") }
      }
      if let diamond, !(diamond > 1 && diamond.isFinite) {
        throw ValidationError("--diamond: expected a ratio of square to marker above 1, got \(diamond)")
      }
      if let size, !(size > 0 && size.isFinite) {
        throw ValidationError("--size: expected metres > 0, got \(size)")
      }
    }

    @OptionGroup var lens: LensOptions

    func run() throws {
      try reportingInputFailures {
        let markerBoard = try board.map { try MarkerBoard(specification: $0) }
        let d =
          try markerBoard?.dictionary ?? MarkerDictionaryOptions.chosen(dictionary, file: dictionaryFile)
        let k = intrinsics
        var detector = MarkerDetector(dictionary: d)
        detector.inverted = inverted
        let markerRig: MarkerRig?
        do { markerRig = try rig.map { try MarkerRigFile.read($0, dictionary: d) } } catch {
          throw InputFailure(error)
        }
        if let recording {
          try detectInFrames(of: recording, with: detector, intrinsics: k, rig: markerRig, board: markerBoard)
          return
        }
        guard let image else { return }
        guard (k == nil) == (size == nil) || ((markerRig != nil || markerBoard != nil) && k != nil) else {
          throw InputFailure(
            message:
              "--intrinsics and --size: give both for poses, or neither (--rig needs --intrinsics; --board poses with them)"
          )
        }
        // The colours only where a board's or diamonds' corners are asked for: the markers
        // themselves are read from the luma (a JPEG's Y channel, decoded alone).
        var picture: RGBA8Image?
        let found: [DetectedMarker]
        do {
          if markerBoard != nil || diamond != nil {
            picture = try ImageFile.readRGBA8(image)
            found = detector.detect(picture!)
          } else {
            found = detector.detect(luma: try ImageFile.readLuma(image))
          }
        } catch { throw InputFailure(error) }
        do {
          try JSONOutput.write(
            try report(found, in: picture, intrinsics: k, rig: markerRig, board: markerBoard))
        } catch let failure as InputFailure { throw failure } catch {
          throw InputFailure(message: "\(image): \(error)")
        }
      }
    }

    /// The markers found, posed when a size and intrinsics are known; the rig's pose with a rig.
    func report(
      _ found: [DetectedMarker], in picture: RGBA8Image?, intrinsics k: Pinhole<Double>?, rig: MarkerRig?,
      board markerBoard: MarkerBoard?
    ) throws -> MarkerReport {
      var reporting = MarkerReporting()
      (reporting.camera, reporting.lens, reporting.markerSide) = (k, try lens.lens(), size)
      (reporting.rig, reporting.board, reporting.diamondRatio) = (rig, markerBoard, diamond)
      return try reporting.report(found, in: picture)
    }

    /// One JSON line per frame of `path` with an image; the frame's intrinsics unless given.
    func detectInFrames(
      of path: String, with detector: MarkerDetector, intrinsics: Pinhole<Double>?, rig: MarkerRig?,
      board markerBoard: MarkerBoard?
    ) throws {
      var reporting = MarkerReporting()
      (reporting.camera, reporting.lens, reporting.markerSide) = (intrinsics, try lens.lens(), size)
      (reporting.rig, reporting.board, reporting.diamondRatio) = (rig, markerBoard, diamond)
      let detection = RecordingMarkerDetection(detector: detector, reporting: reporting, threads: threads)
      let reported: Int
      do {
        let reader = try RecordingReader(path: path)
        reported = try detection.run(reader) { line in
          FileHandleOutput.standardOutput.write(try JSONOutput.encoded(line))
        } batchDone: { frames in
          // Each frame done buys the time another would take at the largest size.
          CommandTimeLimit.extend(by: CommandTimeLimit.budget(pixelSamples: Double(frames) * 4096 * 4096))
        }
      } catch let error as RecordingError {
        throw InputFailure(error)
      } catch {
        throw InputFailure(message: "\(error)")
      }
      if reported == 0 { FileHandleOutput.standardError.write("arscene: \(path): no frame has an image\n") }
    }
  }
}

/// The dictionary a marker command works with: `--dictionary-file`'s when given, else
/// `--dictionary`'s.
enum MarkerDictionaryOptions {
  static func chosen(_ named: MarkerDictionary?, file: String?) throws(InputFailure) -> MarkerDictionary {
    if let file {
      do { return try MarkerDictionary(openCVFile: file) } catch {
        throw InputFailure(message: error.description)
      }
    }
    guard let named else { throw InputFailure(message: "give --dictionary NAME or --dictionary-file FILE") }
    return named
  }
}
