import ARFiles
import Foundation

/// A state file's contents: tagged with a format name and version, checked when read.
protocol VersionedState: Codable {
  var format: String { get }
  var version: Int { get }
  /// The format name and version this build reads and writes.
  static var currentFormat: (name: String, version: Int) { get }
}
