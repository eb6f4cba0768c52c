import ARImage
import ARImageIO
import ARMarkers
import ARMath
import ARPose
import ArgumentParser

/// `arscene marker`: square fiducial markers.
struct MarkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "marker",
    abstract: "Square fiducial markers (ArUco, AprilTag): find them in images, print them.",
    subcommands: [Detect.self, Generate.self]
  )

  /// The `--dictionary` option's dictionary, or an error listing the known ones.
  static func dictionary(_ name: String) throws -> MarkerDictionary {
    guard let d = MarkerDictionary.named(name) else {
      throw InputFailure(
        message:
          "--dictionary: unknown '\(name)' (known: \(MarkerDictionary.all.map(\.name).joined(separator: ", ")))"
      )
    }
    return d
  }

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

    @Option(help: "The dictionary.") var dictionary: String
    @Option(help: "The marker's id.") var id: Int
    @Option(help: "The image's side, pixels.") var pixels: Int
    @Option(help: "White cells around the black border.") var quietZone: Int = 1
    @Option(name: .shortAndLong, help: "The PNG to write.") var output: String

    func run() throws {
      try reportingInputFailures {
        let d = try MarkerCommand.dictionary(dictionary)
        guard (0...16).contains(quietZone) else {
          throw InputFailure(message: "--quiet-zone: expected 0 to 16 cells")
        }
        guard pixels <= 16384 else { throw InputFailure(message: "--pixels: at most 16384") }
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
      abstract: "Find a dictionary's markers in an image; with intrinsics and a size, their poses.",
      discussion: """
        Prints {"markers":[{"id":n,"corners":[[x,y],…],"hamming":h,"pose":{…}}]}: corners in the \
        dictionary's order (top-left, top-right, bottom-right, bottom-left of the marker as drawn) \
        in ARScene's pixel convention (top-left origin, pixel centres at +0.5: OpenCV's + 0.5), \
        hamming the bits corrected, pose both IPPE solutions as arscene pose marker prints them \
        (OpenCV camera convention). An image without markers gives {"markers":[]}.
        """)

    @Argument(help: "The image (PNG or JPEG).") var image: String
    @Option(help: "The dictionary.") var dictionary: String = "aruco_4x4_50"
    @Option(parsing: .unconditional, help: "Camera intrinsics FX,FY,CX,CY in pixels, for poses.")
    var intrinsics: String?
    @Option(help: "The markers' side, metres, for poses.") var size: Double?
    @Flag(help: "Look for white-on-black markers.") var inverted = false

    func run() throws {
      try reportingInputFailures {
        let d = try MarkerCommand.dictionary(dictionary)
        guard (intrinsics == nil) == (size == nil) else {
          throw InputFailure(message: "--intrinsics and --size: give both for poses, or neither")
        }
        let k = try intrinsics.map { try numbers($0, count: 4, option: "--intrinsics") }
        let picture: RGBA8Image
        do { picture = try ImageFile.readRGBA8(image) } catch { throw InputFailure(error) }
        var detector = MarkerDetector(dictionary: d)
        detector.inverted = inverted
        let found = detector.detect(picture)
        let report: MarkerReport
        if let k, let size {
          do {
            report = try MarkerReport(found) { corners in
              try SquareMarker.pose(corners: corners, size: size, intrinsics: SIMD4(k[0], k[1], k[2], k[3]))
            }
          } catch { throw InputFailure(message: "\(image): \(error)") }
        } else {
          report = MarkerReport(found)
        }
        try JSONOutput.write(report)
      }
    }
  }
}
