import ARHit
import ARMath
import ARMesh
import ArgumentParser
import Foundation

/// `arscene raycast`: closest hits of rays with a mesh.
struct RaycastCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "raycast",
    abstract: "Closest hits of rays (ox oy oz dx dy dz per line on stdin) with a model's mesh.",
    discussion: """
      Writes one line per ray: `t triangle u v`, the ray parameter of the closest hit (metres when \
      the direction has unit length), the triangle's index in the mesh (triangulated, in file \
      order), and the barycentric coordinates of its second and third vertex; or `miss`. \
      Watertight: a ray through a shared edge or vertex of a closed mesh never misses. Blank lines \
      and # comments are skipped; a bad line (or a zero-length or non-finite ray) stops with an \
      error naming it, exit code 2.
      """
  )

  @Option(help: "The model (OBJ, glTF, GLB or USD, told by content; its materials are not needed).")
  var mesh: String

  @Option(help: ModelCommand.timeHelp) var time: Double?
  @Option(help: ModelCommand.toleranceHelp) var tolerance: Double?

  @Option(help: "Decimals of t, u and v (0 to 17).")
  var decimals: Int = 9

  @Option(help: "Worker threads for the batch (default: all cores).")
  var threads: Int?

  @OptionGroup var references: ReferenceAccess

  func validate() throws {
    try ModelCommand.validate(time: time, tolerance: tolerance)
    guard (0...17).contains(decimals) else { throw ValidationError("--decimals must be from 0 to 17") }
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
  }

  func run() throws {
    try reportingInputFailures {
      let bvh: BoundingVolumeHierarchy
      CommandTimeLimit.start("raycast \(mesh.escapedForMessage)", reading: [mesh])
      do {
        // Materials do not matter here; what the reader left out of the geometry does, so its
        // warnings are printed as every model command prints them.
        let model = try ModelAsset.load(path: mesh, lenient: true, time: time, tolerance: tolerance)
          .requiringGeometry()
        for warning in model.warnings { FileHandleOutput.standardError.write("arscene: \(warning)\n") }
        bvh = try BoundingVolumeHierarchy(mesh: model.mesh)
      } catch let error as HitError {
        throw InputFailure(message: "\(mesh): \(error)")
      } catch {
        throw InputFailure(error)
      }
      // Read all rays first (batch on all cores), refusing the first bad line.
      var rays: [HitRay] = []
      try forEachNumberLine(columns: 6) { v, lineNumber in
        do {
          rays.append(try HitRay(origin: SIMD3(v[0], v[1], v[2]), direction: SIMD3(v[3], v[4], v[5])))
        } catch {
          throw InputFailure(message: "stdin:\(lineNumber): \(error)")
        }
      }
      CommandTimeLimit.extend(by: CommandTimeLimit.budget(bytes: 100 * Double(rays.count)))
      let hits = bvh.closestHits(rays, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
      var output = ""
      output.reserveCapacity(hits.count * 40)
      for hit in hits {
        if let hit {
          output +=
            "\(fixed(hit.t, decimals)) \(hit.triangle) \(fixed(hit.u, decimals)) \(fixed(hit.v, decimals))\n"
        } else {
          output += "miss\n"
        }
      }
      FileHandleOutput.standardOutput.write(output)
    }
  }
}
