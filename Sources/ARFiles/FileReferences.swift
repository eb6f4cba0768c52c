import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the references inside a file may lead: the one place a reader turns a reference (a glTF
/// `uri`, an MTL `mtllib` or `map_Kd`, a scene's model, a recording's frame) into a path.
///
/// A reference is followed only to a file inside the folder of the file that holds it (at any
/// depth below), or inside a folder the user allowed with ``allow(folder:)`` (the CLI's
/// `--allow-path DIR`). Everything else is refused before the file system is asked about the
/// target: absolute paths elsewhere, `..` that climbs out, the same written percent-encoded (the
/// caller decodes first) and NUL bytes. A reference that stays inside by name but leads out
/// through a symbolic link is refused too: the target's real path (links resolved) must be
/// inside the real path of an allowed folder.
///
/// The folders allowed beyond each file's own are process-wide, like a sandbox: set them once,
/// before reading.
public enum FileReferences {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var allowed: [String] = []

  /// Lets every file's references reach `folder` and what is below it, wherever the file is.
  ///
  /// - Throws: ``FileIOError/missing(path:)`` when `folder` does not exist.
  public static func allow(folder: String) throws(FileIOError) {
    guard let real = realPath(folder) else { throw .missing(path: folder) }
    lock.withLock { allowed.append(real) }
  }

  /// Forgets every folder ``allow(folder:)`` added (for tests).
  public static func resetAllowedFolders() { lock.withLock { allowed.removeAll() } }

  /// The path of the file `reference` names, written in `referencingFile`.
  ///
  /// - Parameters:
  ///   - reference: The reference as a path, relative to the referencing file's folder or
  ///     absolute, already decoded (a glTF URI's percent escapes undone).
  ///   - referencingFile: The file that holds the reference (a path as the caller opened it).
  /// - Returns: The path to open: the folder joined with the reference, `..` and `.` removed.
  /// - Throws: ``ReferenceError`` when the reference is empty, holds a NUL byte, or leads
  ///   outside every folder it may reach.
  package static func resolve(_ reference: String, in referencingFile: String) throws(ReferenceError)
    -> String
  {
    try resolve(
      reference, inFolder: PathNames.folder(of: referencingFile),
      referencedBy: referencingFile)
  }

  /// The path of the file `reference` names, relative to `folder`: for a reference in a folder
  /// of files (a recording's frames, relative to the recording's folder), confined as
  /// ``resolve(_:in:)`` confines one in a file.
  ///
  /// - Parameters:
  ///   - referencedBy: What holds the reference, for the message (the recording).
  ///   - confinedTo: The folder the reference may reach besides the allowed ones, when it is
  ///     not `folder` itself: a composed asset's root folder, for a reference written in a
  ///     file below it (a USD sublayer in a subfolder naming `../textures/wood.png`).
  package static func resolve(
    _ reference: String, inFolder folder: String, confinedTo: String? = nil, referencedBy: String
  ) throws(ReferenceError) -> String {
    let refusal = { (reason: String) in
      ReferenceError(reference: reference, referencingFile: referencedBy, reason: reason)
    }
    guard !reference.isEmpty else { throw refusal("names no file") }
    guard !reference.utf8.contains(0) else { throw refusal("holds a NUL byte") }
    // `..` at the root stays at the root, as the kernel reads it.
    let folder = PathNames.lexicallyNormal(absolute(folder))
    let target = PathNames.lexicallyNormal(reference.hasPrefix("/") ? reference : folder + "/" + reference)
    let folders =
      [confinedTo.map { PathNames.lexicallyNormal(absolute($0)) } ?? folder] + lock.withLock { allowed }
    guard folders.contains(where: { isInside(target, $0) }) else {
      throw refusal(
        reference.hasPrefix("/")
          ? "is an absolute path outside the file's folder (--allow-path DIR lets references reach DIR)"
          : "leads outside the file's folder (--allow-path DIR lets references reach DIR)")
    }
    // By name it stays inside; through links it must too: the target's real path, or for a
    // target that does not exist (the reader's to report as missing), its nearest folder's.
    var existing = target
    var real = realPath(existing)
    while real == nil && existing != "/" {
      existing = PathNames.folder(of: existing)
      real = realPath(existing)
    }
    let realFolders = folders.compactMap(realPath)
    // With no folder there (the referencing file's own is gone), nothing can be opened.
    guard let real, !realFolders.isEmpty else { return target }
    guard realFolders.contains(where: { isInside(real, $0) }) else {
      throw refusal("leads outside the file's folder through a symbolic link")
    }
    return target
  }

  /// `path` made absolute against the working directory.
  static func absolute(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    let here = FileManager.default.currentDirectoryPath
    return path.isEmpty ? here : here + "/" + path
  }

  /// Whether `path` is `folder` or below it (both absolute and normal).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "/" || path == folder || path.hasPrefix(folder + "/")
  }

  /// The real path of `path` (links resolved), or nil when it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
