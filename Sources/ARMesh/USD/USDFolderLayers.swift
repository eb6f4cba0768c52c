import ARFiles
import Foundation

/// The layers a bare layer file (`.usda`, `.usdc`, `.usd`) names beside it: its references,
/// payloads and sublayers, each a file relative to the layer that names it, read only inside
/// the root layer's folder or a folder the user allowed (``FileReferences``, the CLI's
/// `--allow-path DIR`: a production kit whose assets share a folder above each). A name that
/// leads out of them (`../`, an absolute path, a URL, a link to elsewhere) is an error, never
/// followed: a model file must not make ARScene read what lies outside its own folder.
final class USDFolderLayers {
  /// The root layer's folder.
  private let folder: String
  /// The layers read so far, by their absolute paths (a layer two others name is read once).
  private var read: [String: USDLayer] = [:]
  /// Files read, at most ``limit``: a chain of references is bounded in depth, not in breadth.
  private var files = 0
  static let limit = 10_000
  /// The files of the packages read, each named from its package's path
  /// (`/kit/parts.usdz[0/wood.png]`, as ``USDPackagePaths`` names them): their layers' textures.
  private(set) var packageFiles: [String: ArraySlice<UInt8>] = [:]

  /// The layers beside the root layer at `root`.
  init(root: String) { folder = PathNames.folder(of: root) }

  /// The layer `name` names, written in the layer at `from`; nil when there is no such file.
  func layer(_ name: String, from: String) throws(USDError) -> USDLayer? {
    let place = "references"
    // A URL or a resolver's scheme (`omniverse://`, `asset:`) is not a file here.
    guard !name.contains(":") else {
      throw USDError(path: from, place: place, reason: "names \(name), a URL, not a file in its folder")
    }
    let path: String
    do {
      path = try FileReferences.resolve(
        name, inFolder: PathNames.folder(of: from), confinedTo: folder, referencedBy: from)
    } catch {
      throw USDError(path: from, place: place, reason: "names \(name), which \(error.reason)")
    }
    if let known = read[path] { return known }
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    files += 1
    guard files <= Self.limit else {
      throw USDError(path: from, place: place, reason: "names more than \(Self.limit) layers")
    }
    let bytes: [UInt8]
    do { bytes = try FileIO.read(path) } catch {
      throw USDError(path: path, place: place, reason: error.reason)
    }
    var layer: USDLayer
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
      let inner: [String: ArraySlice<UInt8>]
      (layer, inner) = try USDAsset.package(ArraySlice(bytes), path: path, depth: 1, enclosing: [path])
      packageFiles.merge(inner) { first, _ in first }
    } else {
      layer = try USDAsset.layer(ArraySlice(bytes), path: path)
    }
    read[path] = layer
    return layer
  }
}
