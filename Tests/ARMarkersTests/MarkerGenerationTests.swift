import ARImage
import ARMarkers
import ARTestSupport
import Foundation
import Testing

/// Markers drawn by ARScene against their reference implementations: OpenCV's `cv2.aruco`
/// (Debian python3-opencv) for ArUco, the AprilTag library's own drawing (Debian libapriltag,
/// through ctypes) for AprilTag; byte for byte.
@Suite("Marker dictionaries and drawing")
struct MarkerGenerationTests {
  /// Runs `script` in Debian's Python (OpenCV and libapriltag), returning its lines.
  static func python(_ script: String, _ arguments: [String] = []) throws -> [Substring] {
    let outcome = try PythonPeer.run(script, arguments: arguments, packages: "none")
    try #require(outcome.status == 0, "\(outcome.output)")
    return outcome.output.split(separator: "\n")
  }

  /// The bytes a hexadecimal string spells.
  static func bytes(hex: some StringProtocol) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map {
      UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
    }
  }

  @Test("every code of every dictionary is OpenCV's (AprilTag's turned half round, as OpenCV draws them)")
  func codes() throws {
    let script = """
      import cv2, sys
      aruco = [(f"aruco_{n}x{n}_{c}", f"DICT_{n}X{n}_{c}", 0) for n in (4, 5, 6, 7) for c in (50, 100, 250, 1000)]
      for name, constant, turn in aruco + [("aruco_original", "DICT_ARUCO_ORIGINAL", 0),
                                   ("apriltag_36h11", "DICT_APRILTAG_36h11", 1), ("apriltag_16h5", "DICT_APRILTAG_16h5", 1),
                                   ("apriltag_25h9", "DICT_APRILTAG_25h9", 1), ("apriltag_36h10", "DICT_APRILTAG_36h10", 1)]:
          d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, constant))
          codes = []
          for i in range(d.bytesList.shape[0]):
              g = cv2.aruco.Dictionary_getBitsFromByteList(d.bytesList[i:i + 1], d.markerSize)
              if turn: g = g[::-1, ::-1]
              codes.append(str(int("".join(str(int(b)) for b in g.flatten()), 2)))
          print(name, d.markerSize, " ".join(codes))
      """
    var checked = 0
    for line in try Self.python(script) {
      let fields = line.split(separator: " ")
      let dictionary = try #require(MarkerDictionary.named(String(fields[0])))
      #expect(dictionary.size == Int(fields[1]))
      #expect(dictionary.codes == fields.dropFirst(2).map { UInt64($0)! }, "\(fields[0])")
      checked += 1
    }
    #expect(checked == MarkerDictionary.all.count && checked == 21)
  }

  @Test("ArUco markers drawn at any size are OpenCV's drawMarker images, pixel for pixel")
  func arucoImages() throws {
    let script = """
      import cv2, sys
      d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, sys.argv[1]))
      draw = getattr(cv2.aruco, "generateImageMarker", None) or cv2.aruco.drawMarker
      for id in map(int, sys.argv[3].split(",")):
          image = draw(d, id, int(sys.argv[2]), borderBits=1)
          print(image.tobytes().hex())
      """
    for (name, constant, count) in [
      ("aruco_4x4_50", "DICT_4X4_50", 50), ("aruco_5x5_100", "DICT_5X5_100", 100),
      ("aruco_6x6_250", "DICT_6X6_250", 250), ("aruco_original", "DICT_ARUCO_ORIGINAL", 1024),
    ] {
      let dictionary = try #require(MarkerDictionary.named(name))
      let ids = [0, 1, count / 2, count - 1]
      for pixels in [(dictionary.size + 2) * 10, 97] {
        let theirs = try Self.python(
          script, [constant, String(pixels), ids.map(String.init).joined(separator: ",")])
        for (id, hex) in zip(ids, theirs) {
          let ours = try dictionary.image(id: id, pixels: pixels, quietZone: 0).pixels.map { $0.x }
          let expected = Self.bytes(hex: hex)
          #expect(ours == expected, "\(name) id \(id) at \(pixels) px")
        }
      }
    }
  }

  @Test("AprilTag markers with their white border are libapriltag's apriltag_to_image, pixel for pixel")
  func aprilTagImages() throws {
    let script = """
      import ctypes, sys
      class Image(ctypes.Structure):
          _fields_ = [("width", ctypes.c_int32), ("height", ctypes.c_int32), ("stride", ctypes.c_int32), ("buf", ctypes.POINTER(ctypes.c_uint8))]
      lib = ctypes.CDLL("libapriltag.so.3")
      create = getattr(lib, sys.argv[1] + "_create"); create.restype = ctypes.c_void_p
      draw = lib.apriltag_to_image; draw.restype = ctypes.POINTER(Image); draw.argtypes = [ctypes.c_void_p, ctypes.c_int]
      family = create()
      for id in map(int, sys.argv[2].split(",")):
          im = draw(family, id).contents
          print(im.width, bytes(im.buf[y * im.stride + x] for y in range(im.height) for x in range(im.width)).hex())
      """
    for (name, family, count) in [
      ("apriltag_36h11", "tag36h11", 587), ("apriltag_16h5", "tag16h5", 30), ("apriltag_25h9", "tag25h9", 35),
    ] {
      let dictionary = try #require(MarkerDictionary.named(name))
      let ids = [0, 1, count - 1]
      for (id, line) in zip(
        ids, try Self.python(script, [family, ids.map(String.init).joined(separator: ",")]))
      {
        let parts = line.split(separator: " ")
        let width = Int(parts[0])!
        #expect(width == dictionary.size + 4)
        let hex = parts[1]
        let expected = Self.bytes(hex: hex)
        #expect(
          try dictionary.image(id: id, pixels: width, quietZone: 1).pixels.map { $0.x } == expected,
          "\(name) id \(id)")
      }
    }
  }

  @Test("AprilTag families keep their published minimum distance over every pair and turn")
  func hammingDistances() throws {
    for name in ["apriltag_16h5", "apriltag_25h9"] {
      let dictionary = try #require(MarkerDictionary.named(name))
      let n = dictionary.size
      func turned(_ code: UInt64) -> UInt64 {  // a quarter turn clockwise
        var out: UInt64 = 0
        for row in 0..<n {
          for column in 0..<n {
            let bit = code >> UInt64(n * n - 1 - ((n - 1 - column) * n + row)) & 1
            out = out << 1 | bit
          }
        }
        return out
      }
      var closest = Int.max
      for (i, a) in dictionary.codes.enumerated() {
        var turns = [a]
        for _ in 0..<3 { turns.append(turned(turns.last!)) }
        closest = min(closest, turns.dropFirst().map { ($0 ^ a).nonzeroBitCount }.min()!)
        for b in dictionary.codes[(i + 1)...] {
          closest = min(closest, turns.map { ($0 ^ b).nonzeroBitCount }.min()!)
        }
      }
      #expect(closest >= dictionary.minimumDistance!, "\(name): \(closest)")
    }
  }

  @Test("an id outside the dictionary, or too few pixels, is refused")
  func errors() throws {
    let d = try #require(MarkerDictionary.named("aruco_4x4_50"))
    #expect(throws: MarkerDictionary.MarkerError.unknownId(50, dictionary: "aruco_4x4_50", count: 50)) {
      try d.image(id: 50, pixels: 100)
    }
    #expect(throws: MarkerDictionary.MarkerError.self) { try d.image(id: 0, pixels: 7) }
    #expect(MarkerDictionary.named("aruco_9x9_1") == nil)
  }
}
