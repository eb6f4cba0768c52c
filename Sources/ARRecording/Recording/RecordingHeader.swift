/// What a recording says about itself: the first line of ARScene's recording format.
public struct RecordingHeader: Sendable, Equatable {
  /// The version of ARScene's recording format this header and its records follow.
  public var version: Int
  /// Where the records came from: a ``RecordingFormat``'s raw value (the layout converted),
  /// `simulate`, or another tool's name.
  public var source: String
  /// What the record times count.
  public var timeBase: RecordingTimeBase
  /// Free text: the device, the place, the seed of a simulation.
  public var description: String?

  /// The version this build reads and writes.
  public static let currentVersion = 1

  /// A value with these fields, as given (no validation: readers validate what they read).
  public init(
    version: Int = Self.currentVersion, source: String, timeBase: RecordingTimeBase,
    description: String? = nil
  ) {
    self.version = version
    self.source = source
    self.timeBase = timeBase
    self.description = description
  }
}
