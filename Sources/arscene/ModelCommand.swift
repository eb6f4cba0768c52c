import ARFiles
import ARMath
import ARMesh
import ArgumentParser
import Foundation

/// `arscene model …`: any model file (OBJ, glTF, GLB, USD), told by content.
struct ModelCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "model",
    abstract: "Inspect 3-D models: OBJ, glTF 2.0, GLB and USD (USDZ, usdc, usda), told apart by content.",
    subcommands: [Stats.self, Convert.self]
  )

  /// The model at `path` posed at `time`, read leniently (a model's missing texture is a
  /// warning), its warnings printed on standard error.
  static func load(_ path: String, time: Double?, tolerance: Double?) throws -> ModelAsset {
    try reading(path) { () throws(ModelError) in
      let asset = try ModelAsset.load(path: path, lenient: true, time: time, tolerance: tolerance)
      return (asset, asset.warnings)
    }
  }

  /// What `read` makes of the model at `path` (within the command's time limit), its warnings
  /// written to standard error and its error made an input failure.
  static func reading<Read>(_ path: String, _ read: () throws(ModelError) -> (Read, [String])) throws -> Read
  {
    CommandTimeLimit.start("model \(path.escapedForMessage)", reading: [path])
    let made: (Read, warnings: [String])
    do { made = try read() } catch { throw InputFailure(error) }
    for warning in made.warnings { FileHandleOutput.standardError.write("arscene: \(warning)\n") }
    return made.0
  }

  /// The `--time` help of every command that poses a model.
  static let timeHelp: ArgumentHelp = """
    Seconds into the model's first animation: nodes posed, skins applied, morph targets \
    weighted as animated at that time (glTF); USD's transforms at that time's time code \
    (time samples interpolated). Without it, the static scene.
    """

  static let toleranceHelp: ArgumentHelp = """
    Metres a round USD shape (Sphere, Cylinder, Cone, Capsule) may stray from its true surface: \
    the segments around each circle follow from its size (default 0.001).
    """

  /// The `--time` every model-posing option takes: finite seconds, at most 10⁹ from zero; and
  /// the `--tolerance`, metres above 0.
  static func validate(time: Double?, tolerance: Double? = nil) throws {
    if let time, !(time.isFinite && abs(time) <= 1e9) {
      throw ValidationError("--time: expected finite seconds")
    }
    if let tolerance, !(tolerance.isFinite && tolerance > 0 && tolerance <= 1e6) {
      throw ValidationError("--tolerance: expected metres above 0")
    }
  }

  struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print a model's counts, bounds and named nodes as JSON.",
      discussion: """
        Keys: format (obj, gltf, glb, usdz, usdc, usda), vertices, triangles (of the default scene, \
        every mesh instance), nodes, meshes, materials, animations, bounds {min, max} in metres in \
        the model's frame (+Y up; for USD its meshes' authored extents, as USD's tools report \
        them), geometry_bounds (the vertices'), named_nodes. A required glTF extension ARScene does not support, or \
        a file that is no model, exits 2 naming the file and the JSON pointer.
        """
    )

    @Argument(help: "The model file.") var file: String
    @Option(help: ModelCommand.timeHelp) var time: Double?
    @Option(help: ModelCommand.toleranceHelp) var tolerance: Double?

    @OptionGroup var references: ReferenceAccess

    func validate() throws {
      try ModelCommand.validate(time: time, tolerance: tolerance)
    }

    func run() throws {
      try reportingInputFailures {
        // Its counts and bounds only: a USD stage's mesh is not assembled.
        let statistics = try ModelCommand.reading(file) { () throws(ModelError) in
          try ModelStatistics.read(path: file, lenient: true, time: time, tolerance: tolerance)
        }
        try JSONOutput.write(statistics, pretty: true)
      }
    }
  }

  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a model as GLB, glTF or OBJ (with its MTL), told by the output's extension.",
      discussion: """
        Reads OBJ, glTF, GLB (compressed ones too) or USD and writes OUTPUT: a .glb (one mesh node, a \
        primitive a material, textures embedded, named empties kept), a .gltf (the same with its \
        buffer in a data: URI) or a .obj with an MTL and the model's embedded textures beside it. \
        Every file goes to a temporary file and is renamed: a failure leaves nothing behind.
        """)

    @Argument(help: "The model to read.") var input: String
    @Option(name: .shortAndLong, help: "The file to write: .glb, .gltf or .obj.") var output: String
    @Option(help: ModelCommand.timeHelp) var time: Double?
    @Option(help: ModelCommand.toleranceHelp) var tolerance: Double?

    @OptionGroup var references: ReferenceAccess

    func validate() throws {
      guard ["glb", "gltf", "obj"].contains((output as NSString).pathExtension.lowercased()) else {
        throw ValidationError("-o/--output: writes .glb, .gltf or .obj, told by its extension")
      }
      try ModelCommand.validate(time: time, tolerance: tolerance)
    }

    func run() throws {
      try reportingInputFailures {
        let asset = try ModelCommand.load(input, time: time, tolerance: tolerance)
        do {
          _ = try asset.requiringGeometry()
          for file in try asset.exported(to: output) { try FileIO.writeAtomically(file.bytes, to: file.path) }
          for warning in asset.exportWarnings(to: output) {
            FileHandleOutput.standardError.write("arscene: \(warning)\n")
          }
        } catch { throw InputFailure(error) }
      }
    }
  }
}
