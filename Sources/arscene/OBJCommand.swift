import ARFiles
import ARMath
import ARMesh
import ArgumentParser
import Foundation

/// `arscene obj …`: look at and normalise OBJ models.
struct OBJCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "obj",
    abstract: "Inspect and convert Wavefront OBJ models.",
    subcommands: [Stats.self, Convert.self]
  )

  /// Options both subcommands take.
  struct Loading: ParsableArguments {
    @Flag(
      help: "Warn instead of failing on a missing MTL library, material or texture, or an unknown statement.")
    var lenient = false

    @OptionGroup var references: ReferenceAccess

    /// Loads the asset, printing its warnings to stderr.
    func load(_ path: String) throws -> OBJAsset {
      CommandTimeLimit.start("obj \(path.escapedForMessage)", reading: [path])
      do {
        let asset = try OBJAsset.load(path: path, lenient: lenient)
        for warning in asset.warnings { FileHandleOutput.standardError.write("arscene: \(warning)\n") }
        return asset
      } catch { throw InputFailure(error) }
    }
  }

  struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print counts, material names and bounds of an OBJ file as JSON.",
      discussion: """
        Keys: vertices, texcoords, normals, faces, triangles (after triangulation), lines, points, \
        objects, groups, materials (names the MTL libraries define), used_materials (usemtl names), \
        bounds {min, max} of the positions, warnings.
        """
    )

    @Argument(help: "The OBJ file.") var file: String
    @OptionGroup var loading: Loading

    func run() throws {
      try reportingInputFailures {
        try JSONOutput.write(OBJStatistics(try loading.load(file)), pretty: true)
      }
    }
  }

  struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a normalised, triangulated copy of an OBJ file.",
      discussion: """
        Writes OUTPUT (one v/vt/vn per unified vertex, normals computed where missing, triangles \
        grouped by material) and, when the model has materials, an MTL file beside it with the same \
        name. Both are written to temporary files and renamed, so a failure leaves nothing behind.
        """
    )

    @Argument(help: "The OBJ file to read.") var input: String
    @Argument(help: "The OBJ file to write.") var output: String
    @OptionGroup var loading: Loading

    func run() throws {
      try reportingInputFailures {
        let mesh = try loading.load(input).mesh
        let directory = PathNames.folder(of: output)
        let mtlPath = ((output as NSString).deletingPathExtension as NSString).appendingPathExtension("mtl")!
        let mtlName = (mtlPath as NSString).lastPathComponent
        do {
          try FileIO.writeAtomically(Array(mesh.mtlText(relativeTo: directory).utf8), to: mtlPath)
          try FileIO.writeAtomically(Array(mesh.objText(materialLibrary: mtlName).utf8), to: output)
        } catch { throw InputFailure(error) }
      }
    }
  }
}
