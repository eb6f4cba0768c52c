import ARImageIO
import ARMarkers
import ArgumentParser

/// `arscene marker`: square fiducial markers.
struct MarkerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "marker",
    abstract: "Square fiducial markers (ArUco, AprilTag): printable markers.",
    subcommands: [Generate.self]
  )

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
        guard let d = MarkerDictionary.named(dictionary) else {
          throw InputFailure(
            message:
              "--dictionary: unknown '\(dictionary)' (known: \(MarkerDictionary.all.map(\.name).joined(separator: ", ")))"
          )
        }
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
}
