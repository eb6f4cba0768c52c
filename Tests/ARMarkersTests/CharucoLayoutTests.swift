import ARMarkers
import ARTestSupport
import Foundation
import Testing

/// ChArUco boards laid out as OpenCV 4.10 lays them out, in its current pattern and its legacy
/// one (Tests/Fixtures/markers/charuco_layouts.json, written by Tools/generate-charuco-layouts
/// from `CharucoBoard.getObjPoints` and `getChessboardCorners`), for boards of odd and even rows.
@Suite("ChArUco layouts against OpenCV")
struct CharucoLayoutTests {
  struct Layouts: Decodable {
    var boards: [Board]
    struct Board: Decodable {
      var specification: String
      var marker_top_left: [[Double]]
      var chessboard_corners: [[Double]]
    }
  }

  @Test("every marker and chessboard corner where OpenCV puts it, current and legacy patterns")
  func equalsOpenCV() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("markers/charuco_layouts.json")))
    let layouts = try JSONDecoder().decode(Layouts.self, from: data)
    #expect(layouts.boards.contains { $0.specification.hasSuffix(":legacy") })
    for reference in layouts.boards {
      let board = try MarkerBoard(specification: reference.specification)
      #expect(board.legacyPattern == reference.specification.hasSuffix(":legacy"))
      #expect(board.markerCount == reference.marker_top_left.count, "\(reference.specification)")
      for (id, corner) in reference.marker_top_left.enumerated() {
        let ours = try #require(board.markerCorners(id: id))[0]
        // OpenCV's object points are Float.
        #expect(
          abs(ours.x - corner[0]) < 1e-6 && abs(ours.y - corner[1]) < 1e-6,
          "\(reference.specification) marker \(id): \(ours) against \(corner)")
      }
      #expect(board.chessboardCorners.count == reference.chessboard_corners.count)
      for (ours, corner) in zip(board.chessboardCorners, reference.chessboard_corners) {
        #expect(abs(ours.x - corner[0]) < 1e-6 && abs(ours.y - corner[1]) < 1e-6)
      }
    }
  }
}
