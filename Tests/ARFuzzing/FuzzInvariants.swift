import ARFiles
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The fuzz targets that check a promise rather than look for a crash: a reference never
/// resolves outside its file's folder, and an output never replaces what is not a regular
/// file or an input. A broken promise stops the run (`fatalError`), which is the finding.
enum FuzzInvariants {
  /// Lays out `folder` for the reference target: an asset folder with a file and a link out,
  /// a secret beside it.
  static func prepareReferences(in folder: String) throws {
    let files = FileManager.default
    try files.createDirectory(atPath: folder + "/asset/sub", withIntermediateDirectories: true)
    _ = files.createFile(atPath: folder + "/asset/tex.png", contents: Data("texture".utf8))
    _ = files.createFile(atPath: folder + "/secret.txt", contents: Data("secret".utf8))
    try files.createSymbolicLink(atPath: folder + "/asset/out", withDestinationPath: folder)
    try files.createSymbolicLink(atPath: folder + "/asset/link.png", withDestinationPath: "../secret.txt")
  }

  /// Each line of `bytes` as a reference in `asset/model.gltf` (raw and percent-decoded): what
  /// resolves must be inside `asset/`, by name and through links.
  static func checkReferences(_ bytes: [UInt8], in folder: String) {
    let asset = folder + "/asset"
    let realAsset = realPath(asset) ?? asset
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(16) {
      let text = String(decoding: line, as: UTF8.self)
      for reference in [text, text.removingPercentEncoding].compactMap({ $0 }) {
        guard let resolved = try? FileReferences.resolve(reference, in: asset + "/model.gltf") else {
          continue
        }
        guard resolved == asset || resolved.hasPrefix(asset + "/") else {
          fatalError("reference '\(reference)' resolved outside its folder: \(resolved)")
        }
        if let real = realPath(resolved), real != realAsset, !real.hasPrefix(realAsset + "/") {
          fatalError("reference '\(reference)' leads outside its folder through a link: \(real)")
        }
      }
    }
  }

  /// Lays out `folder` for the output target: an input, a FIFO, a link to the input and a
  /// folder, none of which an output may replace.
  static func prepareOutputs(in folder: String) throws {
    let files = FileManager.default
    _ = files.createFile(atPath: folder + "/input.txt", contents: Data("input".utf8))
    InputFiles.note(folder + "/input.txt")
    guard mkfifo(folder + "/fifo", 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
    try files.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "input.txt")
    try files.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: true)
  }

  /// Each line of `bytes` as an output name inside `folder` (never climbing out of it), written
  /// atomically; then the input, FIFO, link and folder must be as they were.
  static func checkOutputs(_ bytes: [UInt8], in folder: String) {
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(8) {
      let parts = String(decoding: line.filter { $0 != 0 }, as: UTF8.self).split(separator: "/")
        .filter { $0 != ".." && $0 != "." }.prefix(4).map { String($0.prefix(100)) }
      guard !parts.isEmpty else { continue }
      try? FileIO.writeAtomically(Array("output".utf8), to: folder + "/" + parts.joined(separator: "/"))
    }
    var status = stat()
    guard lstat(folder + "/fifo", &status) == 0, status.st_mode & S_IFMT == S_IFIFO else {
      fatalError("an output replaced the FIFO")
    }
    guard lstat(folder + "/link", &status) == 0, status.st_mode & S_IFMT == S_IFLNK else {
      fatalError("an output replaced the symbolic link")
    }
    guard lstat(folder + "/dir", &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      fatalError("an output replaced the folder")
    }
    guard FileManager.default.contents(atPath: folder + "/input.txt") == Data("input".utf8) else {
      fatalError("an output replaced the input")
    }
    let temporaries = ((try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []).filter {
      $0.contains(".tmp-")
    }
    guard temporaries.isEmpty else { fatalError("a temporary file was left: \(temporaries)") }
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
