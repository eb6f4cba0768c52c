import ARMath

/// A reference in a file (a buffer, image, material library, texture, model, frame) that ARScene
/// will not follow: it names no file, or a file outside the folders the referencing file may
/// reach (see ``FileReferences``). The message names the reference as written, escaped and cut
/// short, never anything of the file it points at.
package struct ReferenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reference as the file writes it.
  package var reference: String
  /// The file that holds the reference.
  package var referencingFile: String
  /// Why it is not followed.
  package var reason: String

  /// The error of `reference`, found in `referencingFile`.
  package init(reference: String, referencingFile: String, reason: String) {
    (self.reference, self.referencingFile, self.reason) = (reference, referencingFile, reason)
  }

  /// Why, with the reference quoted: for errors of other types that name the file and field.
  package var explanation: String { "'\(reference.quotedForMessage)' \(reason)" }

  package var description: String { "\(referencingFile.escapedForMessage): \(explanation)" }
}
