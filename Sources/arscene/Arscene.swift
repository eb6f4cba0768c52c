import ARFiles
import ARImageIO
import ARMeshCompression
import ARRecording
import ArgumentParser

/// The `arscene` command line: one subcommand a file, each a thin layer over the libraries.
@main
struct Arscene: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "arscene",
    abstract: "A headless AR geometry and scene engine.",
    discussion: """
      Units are metres, seconds and degrees (where a name says so). Camera poses follow the \
      ARKit convention (x right, y up, looking down -Z) unless --convention says otherwise; \
      matrices are 16 numbers, column-major; pixels have their origin at the image's top-left \
      corner with pixel centres at +0.5.
      """,
    version: "0.1.0",
    subcommands: [
      RenderCommand.self, ProjectCommand.self, UndistortCommand.self, OBJCommand.self, GeoCommand.self,
      RaycastCommand.self,
      HitCommand.self, PoseCommand.self, PlaneCommand.self, TrajCommand.self, RecordingCommand.self,
      SimulateCommand.self, ValidateCommand.self, PoiCommand.self, CrsCommand.self, MarkerCommand.self,
      FilmCommand.self, ModelCommand.self, CalibrateCommand.self,
    ]
  )

  /// Tunes the allocator for frame-sized buffers, registers the decoders at the edge (meshopt-
  /// and Draco-compressed glTF, deflated zip entries), then runs the command line.
  static func main() {
    InputFiles.isTracking = true  // no output may replace a file this run has read
    EarlyStop.install { signal in FileHandleOutput.standardError.write("arscene: stopped by \(signal)\n") }
    ReferenceAccess.allowFromEnvironment()
    AllocatorTuning.apply()
    MeshoptDecoding.register()
    DracoDecoding.register()
    ZipArchive.inflate = { try RawDeflate.inflate($0, size: $1) }
    var command: any ParsableCommand
    do { command = try parseAsRoot() } catch { exit(withError: error) }
    CommandTimeLimit.startDefault(for: command)
    do { try command.run() } catch {
      EarlyStop.parkIfStopping()  // a failure caused by the stop: the stop ends the process
      exit(withError: error)
    }
    EarlyStop.parkIfStopping()
  }
}
