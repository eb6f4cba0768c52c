import ARTestSupport
import Foundation
import Testing

/// The exit codes schedulers act on: 2 bad input (do not retry), 64 usage, 75 a transient
/// failure of the machine (retry).
@Suite("Exit codes for schedulers")
struct ExitStatusTests {
  /// A 64 KiB tmpfs mounted in `folder`, or nil where this machine cannot mount one (not root,
  /// or no `mount`): the test then says so and checks nothing else.
  static func tinyDisk(in folder: TemporaryFolder) -> String? {
    let disk = folder.path + "/disk"
    try? FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    let mount = Process()
    mount.executableURL = URL(fileURLWithPath: "/bin/mount")
    mount.arguments = ["-t", "tmpfs", "-o", "size=64k", "tmpfs", disk]
    mount.standardError = FileHandle.nullDevice
    guard (try? mount.run()) != nil else { return nil }
    mount.waitUntilExit()
    return mount.terminationStatus == 0 ? disk : nil
  }

  static func unmount(_ disk: String) {
    let umount = Process()
    umount.executableURL = URL(fileURLWithPath: "/bin/umount")
    umount.arguments = [disk]
    try? umount.run()
    umount.waitUntilExit()
  }

  @Test("a full disk exits 75 (retry), leaving nothing half-written; a bad file exits 2")
  func fullDiskIsTransient() throws {
    let folder = try TemporaryFolder()
    guard let disk = Self.tinyDisk(in: folder) else {
      print("ExitStatusTests: skipped the full-disk case: this machine cannot mount a tmpfs (needs root)")
      return
    }
    defer { Self.unmount(disk) }
    // A 1024 × 1024 render is megabytes of PNG: it cannot fit in 64 KiB.
    let out = disk + "/big.png"
    let scene = ArsceneRunner.packageRoot.path + "/Scenes/zavist.json"
    let full = try ArsceneRunner.run(["render", scene, "-o", out, "--width", "1024", "--height", "1024"])
    #expect(full.status == 75, "\(full.status): \(full.stderr)")
    #expect(full.stderr.contains(String(cString: strerror(ENOSPC))), "\(full.stderr)")
    let left = (try? FileManager.default.contentsOfDirectory(atPath: disk)) ?? []
    #expect(left.isEmpty, "left behind: \(left)")
    let bad = try folder.write("not json", to: "bad.json")
    #expect(try ArsceneRunner.run(["render", bad, "-o", folder.path + "/x.png"]).status == 2)
  }
}
