import ARMarkers
import ARTestSupport
import Foundation
import Testing

/// Custom marker dictionaries in the YAML OpenCV's `Dictionary::writeDictionary` writes.
@Suite("OpenCV dictionary files")
struct DictionaryFileTests {
  static let opencv: Bool = (try? PythonPeer.run("import cv2", packages: "none").status) == 0

  @Test(
    "OpenCV's own dictionaries written to YAML read back bit for bit as ARScene's",
    .enabled(if: opencv, "needs Debian's python3-opencv"),
    arguments: [
      ("DICT_4X4_50", "aruco_4x4_50"), ("DICT_6X6_250", "aruco_6x6_250"),
      ("DICT_APRILTAG_36h11", "apriltag_36h11"),
    ])
  func predefined(opencv name: String, ours: String) throws {
    let folder = try TemporaryFolder()
    let path = folder.path + "/\(ours).yml"
    let script = """
      import sys, cv2
      d = cv2.aruco.Dictionary_get(getattr(cv2.aruco, sys.argv[1]))
      fs = cv2.FileStorage(sys.argv[2], cv2.FILE_STORAGE_WRITE)
      d.writeDictionary(fs)
      fs.release()
      """
    let run = try PythonPeer.run(script, arguments: [name, path], packages: "none")
    #expect(run.status == 0, "\(run.output)")
    let read = try MarkerDictionary(openCVFile: path)
    let builtIn = try #require(MarkerDictionary.named(ours))
    #expect(read.size == builtIn.size)
    if ours.hasPrefix("apriltag") {
      // OpenCV keeps its AprilTag families turned half a turn (its bit strings reversed) and
      // corrects no bits of them: the same tags, another first corner.
      let bits = UInt64(read.size * read.size)
      let turned = builtIn.codes.map { code in
        (0..<bits).reduce(UInt64(0)) { $0 << 1 | (code >> $1 & 1) }
      }
      #expect(read.codes == turned)
    } else {
      #expect(read.codes == builtIn.codes && read.correctableBits == builtIn.correctableBits)
    }
  }

  @Test(
    "a custom dictionary OpenCV made: marker detect --dictionary-file finds the marker OpenCV drew",
    .enabled(if: opencv, "needs Debian's python3-opencv"))
  func custom() throws {
    let folder = try TemporaryFolder()
    let (yaml, png) = (folder.path + "/custom.yml", folder.path + "/marker.png")
    let script = """
      import sys, cv2, numpy as np
      d = cv2.aruco.custom_dictionary(12, 5, 7)
      fs = cv2.FileStorage(sys.argv[1], cv2.FILE_STORAGE_WRITE)
      d.writeDictionary(fs)
      fs.release()
      m = cv2.aruco.drawMarker(d, 9, 140)
      img = np.full((240, 240), 255, np.uint8)
      img[50:190, 50:190] = m
      cv2.imwrite(sys.argv[2], img)
      """
    let run = try PythonPeer.run(script, arguments: [yaml, png], packages: "none")
    #expect(run.status == 0, "\(run.output)")
    let outcome = try ArsceneRunner.run(["marker", "detect", png, "--dictionary-file", yaml])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    struct Report: Decodable { var markers: [Marker]; struct Marker: Decodable { var id: Int } }
    let report = try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8))
    #expect(report.markers.map(\.id) == [9])
  }

  @Test(
    "a bad dictionary file is an error naming the file, the line and the field",
    arguments: [
      (
        "nmarkers: 2\nmarkersize: 3\nmaxCorrectionBits: 1\nmarker_0: \"101010101\"\nmarker_1: \"10101010\"\n",
        ":5: marker_1: "
      ),
      ("nmarkers: 2\nmarkersize: 3\nmaxCorrectionBits: 1\nmarker_0: \"101010101\"\n", ": marker_1: missing"),
      ("nmarkers: 1\nmarkersize: 12\nmaxCorrectionBits: 1\nmarker_0: \"1\"\n", ":2: markersize: "),
      ("nmarkers: 1\nnmarkers: 1\n", ":2: nmarkers: appears twice"),
      ("just text\n", ":1: line: "),
    ])
  func bad(text: String, expected: String) throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(text, to: "bad.yml")
    let outcome = try ArsceneRunner.run(["marker", "detect", path, "--dictionary-file", path])
    #expect(outcome.status == 2 && outcome.stderr.contains(path + expected), "\(outcome.stderr)")
  }
}
