import ARFilm
import ARImage
import ARImageIO
import ArgumentParser
import Foundation

/// `arscene film`: analog-film looks for photos and rendered frames.
struct FilmCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "film",
    abstract: "Film looks: apply a stock's preset or a .cube LUT to an image; list the shipped stocks.",
    subcommands: [Apply.self, List.self]
  )

  struct Apply: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "apply",
      abstract: "Apply a film preset (or a .cube LUT alone) to a PNG, JPEG or WebP image, writing a PNG.",
      discussion: """
        --preset takes a shipped stock's name (arscene film list) or a preset file's path; its \
        stages run in linear light, and --seed picks the grain and light leaks (the same seed \
        gives the same bytes). --lut applies a .cube LUT alone to the image's encoded values, as \
        grading tools do: trilinear, or tetrahedral with --tetrahedral. An unknown preset, a \
        malformed preset or LUT (naming the file, line or field) or an unreadable image is an \
        error, exit 2; the PNG is written whole or not at all.
        """)

    @Argument(help: "The image (PNG, JPEG or WebP).") var image: String
    @Option(help: "A shipped preset's name or a preset file.") var preset: String?
    @Option(help: "A .cube LUT to apply alone.") var lut: String?
    @Flag(help: "Interpolate the LUT tetrahedrally instead of trilinearly.") var tetrahedral = false
    @Option(help: "Seed of the grain and light leaks.") var seed: UInt64 = 0
    @Option(help: "Worker threads (default: every core); the image is the same for any count.")
    var threads: Int = ProcessInfo.processInfo.activeProcessorCount
    @Option(name: .shortAndLong, help: "The PNG to write.") var output: String

    @OptionGroup var references: ReferenceAccess

    func validate() throws {
      guard (preset == nil) != (lut == nil) else {
        throw ValidationError("give --preset or --lut, one of them")
      }
      guard (1...256).contains(threads) else { throw ValidationError("--threads: 1 to 256") }
      if tetrahedral, lut == nil { throw ValidationError("--tetrahedral applies to --lut") }
    }

    func run() throws {
      try reportingInputFailures {
        let picture: RGBA8Image
        CommandTimeLimit.start(
          "film \(image)", seconds: CommandTimeLimit.budget(bytes: CommandTimeLimit.size(of: image)))
        do { picture = try ImageFile.readRGBA8(image) } catch { throw InputFailure(error) }
        // Every stage of a look over every pixel.
        CommandTimeLimit.extend(
          by: CommandTimeLimit.budget(pixelSamples: 50 * Double(picture.width * picture.height)))
        let result: RGBA8Image
        do {
          if let preset {
            let look = try FilmLook(named: preset)
            result = look.apply(to: picture, context: FilmContext(seed: seed, threads: threads))
          } else {
            let table = try CubeLUT(path: lut!)
            result = table.applyToEncoded(picture, interpolation: tetrahedral ? .tetrahedral : .trilinear)
          }
        } catch let error as FilmError { throw InputFailure(message: "\(error)") }
        do {
          try ImageFile.writePNG(result, to: output)
        } catch { throw InputFailure(message: "\(error)") }
      }
    }
  }

  struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "The shipped film presets: a JSON line each with name, title, kind and description.")

    func run() throws {
      try reportingInputFailures {
        for name in FilmLook.shipped {
          let look: FilmLook
          do { look = try FilmLook(named: name) } catch { throw InputFailure(message: "\(error)") }
          try JSONOutput.write(
            FilmPresetSummary(name: name, title: look.name, kind: look.kind, description: look.description))
        }
      }
    }
  }
}
