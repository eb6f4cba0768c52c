import ARMath
import ARTestSupport
import Foundation
import Testing

@testable import ARRecording

/// LZFSE decoding against the reference implementation (its Python bindings, `lzfse` on PyPI):
/// what it compresses decodes to the same bytes, and hostile streams are refused, never a crash.
@Suite("LZFSE")
struct LZFSETests {
  /// Writes seeded inputs of the kinds Record3D compresses (float depth, 8-bit confidence), and
  /// text, noise, runs and sizes on each side of the encoder's switches (raw under 8 bytes,
  /// LZVN under 4096, several blocks past 1 MiB), each beside its reference compression.
  static let script = """
    import lzfse, random, struct, sys, os
    folder = sys.argv[1]
    rng = random.Random(7)
    cases = {
      "empty": b"", "tiny": b"abcde", "text": b"the quick brown fox jumps over the lazy dog " * 40,
      "noise_small": bytes(rng.randrange(256) for _ in range(3000)),
      "noise": bytes(rng.randrange(256) for _ in range(70000)),
      "run": b"\\0" * 100000,
      "depth": b"".join(struct.pack("<f", 0.5 + 0.001 * ((x * 7 + y * 3) % 400) if (x + y) % 37 else float("nan"))
                        for y in range(192) for x in range(256)),
      "confidence": bytes((x // 16 + y // 9) % 3 for y in range(192) for x in range(256)),
      "large": bytes((i * i >> 7) & 0xff for i in range(1500000)),
    }
    for name, data in cases.items():
      open(os.path.join(folder, name + ".raw"), "wb").write(data)
      open(os.path.join(folder, name + ".lzfse"), "wb").write(lzfse.compress(data))
    print(len(cases))
    """

  @Test("the reference encoder's streams (raw, LZVN and LZFSE blocks) decode to their bytes")
  func decodesTheReference() throws {
    let folder = try TemporaryFolder()
    let peer = try PythonPeer.run(Self.script, arguments: [folder.path], packages: "lzfse")
    try #require(peer.status == 0, "\(peer.output)")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".raw")
    }
    #expect(names.count == 9)
    for name in names {
      let base = folder.path + "/" + name.dropLast(4)
      let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + ".raw")))
      let compressed = [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + ".lzfse")))
      let decoded: [UInt8]
      do { decoded = try LZFSE.decode(compressed, limit: raw.count) } catch {
        Issue.record("\(name): \(error)")
        continue
      }
      #expect(decoded == raw, "\(name): \(decoded.count) bytes against \(raw.count)")
      // One byte fewer allowed than the stream makes: refused, not cut.
      if !raw.isEmpty {
        #expect(throws: LZFSEError.self) { _ = try LZFSE.decode(compressed, limit: raw.count - 1) }
      }
    }
  }

  @Test("truncated and corrupted streams: an error, never a crash or a hang")
  func hostileStreams() throws {
    let folder = try TemporaryFolder()
    let peer = try PythonPeer.run(Self.script, arguments: [folder.path], packages: "lzfse")
    try #require(peer.status == 0, "\(peer.output)")
    var rng = SplitMix64(seed: 11)
    for name in ["text", "noise_small", "depth", "confidence"] {
      let compressed = [UInt8](
        try Data(contentsOf: URL(fileURLWithPath: folder.path + "/" + name + ".lzfse")))
      for cut in stride(from: 0, to: compressed.count, by: max(1, compressed.count / 97)) {
        #expect(throws: LZFSEError.self) {
          _ = try LZFSE.decode(Array(compressed.prefix(cut)), limit: 1 << 20)
        }
      }
      for _ in 0..<300 {
        var corrupted = compressed
        let i = Int(rng.next() % UInt64(corrupted.count))
        corrupted[i] ^= UInt8(1 << (rng.next() % 8))
        _ = try? LZFSE.decode(corrupted, limit: 1 << 20)
      }
    }
    #expect(throws: LZFSEError.self) { _ = try LZFSE.decode(Array("bvx?xxxxxxxx".utf8), limit: 100) }
  }
}
