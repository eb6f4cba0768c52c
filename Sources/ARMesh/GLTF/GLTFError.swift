/// Why a glTF asset cannot be read: the file, and where in it (a JSON pointer such as
/// `/accessors/2/count`, or the GLB chunk), and why.
public struct GLTFError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The `.gltf` or `.glb` file (or the buffer file it names, for a short buffer).
  public var path: String
  /// A JSON pointer into the document (`/meshes/0/primitives/1/indices`), or `GLB header`,
  /// `GLB chunk 1`; empty when the whole file is at fault.
  public var pointer: String
  /// What is wrong there.
  public var reason: String

  /// The error of `path` at `pointer`.
  public init(path: String, pointer: String, reason: String) {
    self.path = path
    self.pointer = pointer
    self.reason = reason
  }

  public var description: String { pointer.isEmpty ? "\(path): \(reason)" : "\(path): \(pointer): \(reason)" }
}
