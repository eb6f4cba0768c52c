import ARFiles
import Foundation

/// The layers a bare layer file (`.usda`, `.usdc`, `.usd`) names beside it: its references,
/// payloads and sublayers, each a file relative to the layer that names it, read only inside
/// the root layer's folder. A name that leads out of it (`../`, an absolute path, a URL, a link
/// to elsewhere) is an error, never followed: a model file must not make ARScene read what lies
/// outside its own folder.
final class USDFolderLayers {
  /// The root layer's folder, absolute (as named, and with its links resolved).
  private let folder: String, resolvedFolder: String
  /// The layers read so far, by their absolute paths (a layer two others name is read once).
  private var read: [String: USDLayer] = [:]
  /// Files read, at most ``limit``: a chain of references is bounded in depth, not in breadth.
  private var files = 0
  static let limit = 10_000

  /// The layers beside the root layer at `root`.
  init(root: String) {
    folder =
      URL(fileURLWithPath: Self.absolute((root as NSString).deletingLastPathComponent)).standardizedFileURL
      .path
    resolvedFolder = folder.resolvingSymlinksInPath
  }

  /// The layer `name` names, written in the layer at `from`; nil when there is no such file.
  func layer(_ name: String, from: String) throws(USDError) -> USDLayer? {
    let place = "references"
    guard !name.isEmpty, !name.hasPrefix("/"), !name.contains(":") else {
      throw USDError(
        path: from, place: place, reason: "names \(name), outside its folder (an absolute path or URL)")
    }
    let base = (Self.absolute(from) as NSString).deletingLastPathComponent
    let path = URL(fileURLWithPath: base).appendingPathComponent(name).standardizedFileURL.path
    guard path.hasPrefix(folder + "/") else {
      throw USDError(path: from, place: place, reason: "names \(name), outside its folder (\(folder))")
    }
    if let known = read[path] { return known }
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    // A link inside the folder may lead out of it (the folder's own path may pass through links).
    guard path.resolvingSymlinksInPath.hasPrefix(resolvedFolder + "/") else {
      throw USDError(path: from, place: place, reason: "names \(name), a link that leads outside its folder")
    }
    files += 1
    guard files <= Self.limit else {
      throw USDError(path: from, place: place, reason: "names more than \(Self.limit) layers")
    }
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch {
      throw USDError(path: path, place: place, reason: error.reason)
    }
    let layer =
      bytes.starts(with: [0x50, 0x4B, 0x03, 0x04])
      ? try USDAsset.package(ArraySlice(bytes), path: path, depth: 1).0
      : try USDAsset.layer(ArraySlice(bytes), path: path)
    read[path] = layer
    return layer
  }

  /// `path` made absolute against the working directory.
  private static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }
}

extension String {
  /// The path with its symbolic links resolved (Foundation's, on a file path).
  fileprivate var resolvingSymlinksInPath: String {
    URL(fileURLWithPath: self).resolvingSymlinksInPath().path
  }
}
