import ARHit
import ARMarkers
import ARMath
import ARPlaces
import ARRecording
import ArgumentParser

// The libraries' own enums, taken as option values by their raw values.
extension InterfaceOrientation: ExpressibleByArgument {}
extension CameraConvention: ExpressibleByArgument {}
extension PoseRelation: ExpressibleByArgument {}
extension PoseAlignment: ExpressibleByArgument {}
extension TrajectoryFormat: ExpressibleByArgument {}

extension RelativePoseError.DeltaUnit: ExpressibleByArgument {
  /// The unit's name, `meters` taken for `metres` too.
  public init?(argument: String) {
    self.init(rawValue: argument == "meters" ? "metres" : argument)
  }
}
extension VisitGame.Rule: ExpressibleByArgument {}
extension RecordingFormat: ExpressibleByArgument {}

extension MarkerDictionary: ExpressibleByArgument {
  /// The dictionary of that name (`aruco_4x4_50`, `apriltag_36h11`, …).
  public init?(argument: String) {
    guard let named = MarkerDictionary.named(argument) else { return nil }
    self = named
  }

  /// Every dictionary's name, for the help.
  public static var allValueStrings: [String] { all.map(\.name) }

  /// Its name, for the help's default (not the whole table of codes).
  public var defaultValueDescription: String { name }
}

extension ShardSelection: ExpressibleByArgument {
  /// `I/N`, `auto/N` or `auto` (the index, or both, from the batch system's environment).
  public init?(argument: String) {
    guard let parsed = try? ShardSelection(parsing: argument) else { return nil }
    self = parsed
  }
}
