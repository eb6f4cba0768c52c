/// A folder for a recording's frames that cannot be created.
public struct FrameFolderError: Error, Sendable, CustomStringConvertible {
  /// The folder or file at fault.
  public let path: String
  /// What is wrong.
  public let reason: String
  public var description: String { "\(path): cannot create the folder: \(reason)" }
}
