import ARImageIO
import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// Record3D `.r3d` captures: a zip of `metadata` and `rgbd/` entries, read in place.
@Suite("Record3D captures")
struct Record3DTests {
  static let scan = Fixtures.path("recordings/record3d/scan.r3d")

  @Test("frames name their archive entries, with the colour camera, the depth's size and its encoding")
  func framesInTheArchive() throws {
    Self.linkInflater()
    let reader = try RecordingReader(path: Self.scan)
    #expect(reader.format == .record3D && reader.header.timeBase == .uptime)
    let frames = try reader.framesAndPoses().frames
    let times: [Double] = (0..<3).map { 5000 + Double($0) / 30 }
    #expect(frames.map(\.time) == times)
    let first = try #require(frames.first)
    #expect(first.archive == "scan.r3d" && first.image == .file("rgbd/0.jpg"))
    #expect(first.depthPath == "rgbd/0.depth" && first.confidencePath == "rgbd/0.conf")
    #expect(first.depthEncoding == .lzfseFloat32(width: 16, height: 12))
    #expect(
      first.intrinsics == Pinhole(fx: 52.5, fy: 52.5, cx: 32.25, cy: 23.75)
        && first.imageSize == SIMD2(64, 48))
  }

  /// Deflated entries (the metadata) through ARImageIO's libdeflate, as `arscene` links it.
  static func linkInflater() { ZipArchive.inflate = { try RawDeflate.inflate($0, size: $1) } }

  @Test("the depth and confidence entries decode: 1.5 m with one pixel unmeasured, 16 × 12 levels")
  func depthDecodes() throws {
    Self.linkInflater()
    let archive = try ZipArchive(path: Self.scan)
    #expect(archive.entries["metadata"]?.method == 8 && archive.entries["rgbd/1.jpg"]?.method == 0)
    let depth = try LZFSE.decode(archive.contents("rgbd/1.depth"), limit: 4 * 192)
    var values: [Float] = []
    for i in stride(from: 0, to: depth.count, by: 4) {
      let bits = UInt32(depth[i]) | UInt32(depth[i + 1]) << 8 | UInt32(depth[i + 2]) << 16
      values.append(Float(bitPattern: bits | UInt32(depth[i + 3]) << 24))
    }
    #expect(values.count == 192 && values.filter(\.isNaN).count == 1)
    #expect(values.filter { $0 == 1.5 }.count == 191)
    #expect(try LZFSE.decode(archive.contents("rgbd/1.conf"), limit: 192).count == 192)
    let metadata = try archive.contents("metadata")
    #expect(metadata.count == 469 && metadata.first == UInt8(ascii: "{"))
  }

  @Test("a zip without metadata, a skewed K, a non-unit quaternion, timestamps that do not match: refused")
  func refusals() throws {
    let folder = try TemporaryFolder()
    // A zip made here, stored entries only: the test needs no DEFLATE decoder.
    func capture(_ entries: [(String, String)]) throws -> String {
      let path = folder.path + "/c\(entries.count)-\(entries.first?.1.count ?? 0).r3d"
      try StoredZip.write(entries.map { ($0.0, Array($0.1.utf8)) }, to: path)
      return path
    }
    let good =
      #"{"w":64,"h":48,"dw":16,"dh":12,"fps":30,"K":[52.5,0,0,0,52.5,0,32,24,1],"poses":[[0,0,0,1,0,0,0]]}"#
    let reader = try RecordingReader(path: try capture([("metadata", good)]))
    var count = 0
    try reader.forEach { if case .pose = $0 { count += 1 } }
    #expect(count == 1)
    for (metadata, field) in [
      (good.replacingOccurrences(of: "52.5,0,0,0,52.5", with: "52.5,0,0,0.5,52.5"), "/K"),
      (good.replacingOccurrences(of: "[0,0,0,1,0,0,0]", with: "[0,0,0,2,0,0,0]"), "/poses/0"),
      (good.replacingOccurrences(of: "\"fps\":30", with: "\"frameTimestamps\":[1,2]"), "/frameTimestamps"),
    ] {
      let path = try capture([("metadata", metadata)])
      #expect(throws: RecordingError.self) { _ = try RecordingReader(path: path) }
      do { _ = try RecordingReader(path: path) } catch {
        #expect("\(error)".contains("metadata: \(field):"), "\(error)")
      }
    }
    let other = try capture([("other", "{}")])
    expectError(RecordingError.self, "unknownFormat") { _ = try RecordingReader(path: other) }
  }
}

/// A zip archive of stored entries, for tests.
enum StoredZip {
  static func write(_ entries: [(String, [UInt8])], to path: String) throws {
    var out: [UInt8] = [], directory: [UInt8] = []
    func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
    for (name, data) in entries {
      let offset = out.count, n = Array(name.utf8)
      let common = u16(20) + u16(0) + u16(0) + u16(0) + u16(0) + u32(0) + u32(data.count) + u32(data.count)
      out += u32(0x0403_4B50) + common + u16(n.count) + u16(0) + n + data
      directory +=
        u32(0x0201_4B50) + u16(20) + common + u16(n.count) + u16(0) + u16(0) + u16(0) + u16(0)
        + u32(0) + u32(offset) + n
    }
    let start = out.count
    out += directory
    out +=
      u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count) + u32(directory.count)
      + u32(start) + u16(0)
    try Data(out).write(to: URL(fileURLWithPath: path))
  }
}

/// Record3D's "EXR + JPG" export: `metadata.json`, `rgb/N.jpg`, `depth/N.exr`.
@Suite("Record3D EXR exports")
struct Record3DFolderTests {
  static let export = Fixtures.path("recordings/record3d_exr")

  @Test("the folder reads as the archive does: the same poses, times and camera, depth in EXR")
  func sameAsTheArchive() throws {
    Record3DTests.linkInflater()
    let folder = try RecordingReader(path: Self.export)
    #expect(folder.format == .record3DFolder && folder.header.timeBase == .uptime)
    let (frames, poses) = try folder.framesAndPoses()
    let (archiveFrames, archivePoses) = try RecordingReader(path: Record3DTests.scan).framesAndPoses()
    #expect(poses == archivePoses)
    #expect(frames.map(\.time) == archiveFrames.map(\.time))
    #expect(frames.map(\.intrinsics) == archiveFrames.map(\.intrinsics))
    let first = try #require(frames.first)
    #expect(
      first.image == .file("rgb/0.jpg") && first.depthPath == "depth/0.exr" && first.depthEncoding == .exr)
    #expect(first.confidencePath == nil && first.archive == nil)
  }

  @Test("recording convert keeps the EXR depth; the JSON Lines read it back")
  func convertKeepsTheDepth() throws {
    let folder = try TemporaryFolder()
    let out = folder.path + "/export.jsonl"
    _ = try RecordingConversion.convert(RecordingReader(path: Self.export), to: out, target: .recording)
    let back = try RecordingReader(path: out).framesAndPoses().frames
    #expect(back.first?.depthEncoding == .exr && back.first?.depthPath?.hasSuffix("depth/0.exr") == true)
  }
}
