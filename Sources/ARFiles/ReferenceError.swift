import ARMath

/// A reference in a file (a buffer, image, material library, texture, model, frame) that ARScene
/// will not follow: it names no file, or a file outside the folders the referencing file may
/// reach (see ``FileReferences``). The message names the reference as written, escaped and cut
/// short, never anything of the file it points at.
public struct ReferenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reference as the file writes it.
  public var reference: String
  /// The file that holds the reference.
  public var referencingFile: String
  /// Why it is not followed.
  public var reason: String

  /// The error of `reference`, found in `referencingFile`.
  public init(reference: String, referencingFile: String, reason: String) {
    (self.reference, self.referencingFile, self.reason) = (reference, referencingFile, reason)
  }

  /// Why, with the reference quoted: for errors of other types that name the file and field.
  public var explanation: String { "'\(reference.quotedForMessage)' \(reason)" }

  public var description: String { "\(referencingFile.escapedForMessage): \(explanation)" }
}
