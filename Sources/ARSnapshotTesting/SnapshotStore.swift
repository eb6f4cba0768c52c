import ARFiles
import ARImage
import Foundation

/// When references are written: never silently, since a recorded reference fails its test.
public enum SnapshotRecording: String, Sendable, CaseIterable {
  /// Write a reference only where none exists (the default): the first run records, and fails.
  case missing
  /// Write every reference anew (`ARSCENE_SNAPSHOTS=record`), failing each test that wrote one.
  case all = "record"
  /// Write nothing: a missing reference fails (`ARSCENE_SNAPSHOTS=never`, for CI).
  case never

  /// The mode `ARSCENE_SNAPSHOTS` names in `environment`; ``missing`` when it is not set.
  ///
  /// - Throws: ``SnapshotStore/ConfigurationError`` for an unknown value, so that a typo
  ///   never passes for a mode.
  public static func from(_ environment: [String: String]) throws(SnapshotStore.ConfigurationError)
    -> SnapshotRecording
  {
    guard let value = environment["ARSCENE_SNAPSHOTS"], !value.isEmpty else { return .missing }
    guard let mode = SnapshotRecording(rawValue: value) else {
      throw .init(
        description:
          "ARSCENE_SNAPSHOTS=\(value): expected \(allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return mode
  }
}

/// A test file's reference images and the checks against them: references are PNGs in
/// `__Snapshots__/<TestFile>/<name>.png` beside the test file (committed with it); a failure
/// writes `<name>.reference.png`, `<name>.actual.png` and `<name>.difference.png` to the
/// artifacts folder (`ARSCENE_SNAPSHOT_ARTIFACTS`, or `arscene-snapshots` in the temporary
/// folder).
public struct SnapshotStore: Sendable {
  /// The folder of this test file's references.
  public var folder: String
  /// Where a failure's images are written.
  public var artifacts: String
  /// When references are written.
  public var recording: SnapshotRecording

  /// An unknown `ARSCENE_SNAPSHOTS` value.
  public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The store of the test file at `testFile` (pass `#filePath`), configured by `environment`.
  public init(testFile: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(ConfigurationError)
  {
    let url = URL(fileURLWithPath: testFile)
    let name = url.deletingPathExtension().lastPathComponent
    folder = url.deletingLastPathComponent().appendingPathComponent("__Snapshots__/\(name)").path
    let base = environment["ARSCENE_SNAPSHOT_ARTIFACTS"] ?? (NSTemporaryDirectory() + "arscene-snapshots")
    artifacts = URL(fileURLWithPath: base).appendingPathComponent(name).path
    recording = try SnapshotRecording.from(environment)
  }

  /// The outcome of checking `image` against reference `name`.
  public enum Verdict: Sendable {
    /// It matches; the figures.
    case matched(SnapshotDifference)
    /// A reference was written at the path (the test should fail: nothing was compared).
    case recorded(String)
    /// No reference, and the mode writes none.
    case missing(String)
    /// It differs; the figures and the files written to look at.
    case differs(SnapshotDifference, reference: String, actual: String, difference: String)

    /// What a failing test says, or nil when it matched.
    public var failure: String? {
      switch self {
      case .matched: nil
      case .recorded(let path):
        "recorded a new reference \(path): look at it, commit it, and run again to compare"
      case .missing(let path):
        "no reference \(path) (ARSCENE_SNAPSHOTS=never): record one with ARSCENE_SNAPSHOTS=missing"
      case .differs(let d, let reference, let actual, let difference):
        "the snapshot differs from its reference: \(d.summary). Reference \(reference), actual \(actual), difference \(difference)"
      }
    }
  }

  /// Checks `image` against the reference `name` (letters, digits, `-`, `_`, `.`) under
  /// `gates`, recording it as ``recording`` says.
  ///
  /// - Throws: ``SnapshotError`` for a reference that cannot be read, or a file that cannot be
  ///   written.
  public func verify(_ image: RGBA8Image, named name: String, gates: SnapshotGates = .standard)
    throws(SnapshotError) -> Verdict
  {
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }),
      !name.hasPrefix(".")
    else {
      throw .unwritable(path: name, reason: "a snapshot name is letters, digits, '-', '_' and '.'")
    }
    let path = folder + "/\(name).png"
    guard FileManager.default.fileExists(atPath: path), recording != .all else {
      if recording == .never { return .missing(path) }
      try SnapshotFiles.write(PortablePNG.encode(image), to: path)
      return .recorded(path)
    }
    let bytes = try SnapshotFiles.read(path)
    let reference = try PortablePNG.decode(bytes, path: path)
    let difference = SnapshotDifference(image, against: reference, gates: gates)
    if difference.matches { return .matched(difference) }
    let stem = artifacts + "/\(name)"
    let files = (stem + ".reference.png", stem + ".actual.png", stem + ".difference.png")
    try SnapshotFiles.write(bytes, to: files.0)
    try SnapshotFiles.write(PortablePNG.encode(image), to: files.1)
    try SnapshotFiles.write(
      PortablePNG.encode(SnapshotDifference.image(image, against: reference, gates: gates)), to: files.2)
    return .differs(difference, reference: files.0, actual: files.1, difference: files.2)
  }

}

/// Reading and writing a snapshot's files, through ARFiles (a write goes through a temporary
/// file and never replaces anything but a regular file).
enum SnapshotFiles {
  /// The bytes of the file at `path`.
  static func read(_ path: String) throws(SnapshotError) -> [UInt8] {
    do { return try FileIO.read(path) } catch { throw .unreadableReference(path: path, reason: error.reason) }
  }

  /// Writes `bytes` to `path` through a temporary file renamed into place, making its folder.
  static func write(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
      throw .unwritable(path: folder, reason: error.localizedDescription)
    }
    do { try FileIO.writeAtomically(bytes, to: path) } catch {
      throw .unwritable(path: path, reason: error.reason)
    }
  }
}
