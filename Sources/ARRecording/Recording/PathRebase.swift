import ARFiles
import Foundation

/// Rewrites the relative paths of frame records from one folder to another.
struct PathRebase {
  let prefix: String?

  init(from source: String, to target: String) {
    let a = URL(fileURLWithPath: source).standardizedFileURL.pathComponents
    let b = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
    guard a != b else {
      prefix = nil
      return
    }
    let common = zip(a, b).prefix { $0 == $1 }.count
    let up = Array(repeating: "..", count: b.count - common)
    prefix = (up + a.dropFirst(common)).joined(separator: "/")
  }

  func apply(_ record: RecordingRecord) -> RecordingRecord {
    guard let prefix, case .frame(var f) = record else { return record }
    func rebased(_ path: String) -> String {
      path.hasPrefix("/") ? path : (prefix.isEmpty ? path : prefix + "/" + path)
    }
    // An archive's entries are named inside it: only the archive moves.
    if let archive = f.archive {
      f.archive = rebased(archive)
      return .frame(f)
    }
    switch f.image {
    case .file(let p)?: f.image = .file(rebased(p))
    case .video(let p, let n)?: f.image = .video(path: rebased(p), frame: n)
    case nil: break
    }
    f.depthPath = f.depthPath.map(rebased)
    f.confidencePath = f.confidencePath.map(rebased)
    return .frame(f)
  }
}
