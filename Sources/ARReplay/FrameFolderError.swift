/// A folder for a recording's frames that cannot be created.
public struct FrameFolderError: Error, Sendable, CustomStringConvertible {
  public let path: String
  public let reason: String
  public var description: String { "\(path): cannot create the folder: \(reason)" }
}
