import Foundation
import Testing

@testable import ARMarkers

/// A calibration's σ where the views do not determine a parameter: `null` in the report, not
/// an encoder failure ("cannot write the result as JSON: … nan", exit 2, on OpenCV's own
/// four ChArUco photos).
@Suite("Calibration σ not determined")
struct CalibrationSigmaTests {
  @Test("an undetermined σ is written as null, the others as numbers")
  func undeterminedIsNull() throws {
    let sigma = BoardCalibration.Report.Sigma(
      intrinsics: [0.5, nil, 0.25, 0.75], distortion: [nil, 0.01],
      undetermined: ["fy": "the views' information matrix is singular", "k1": "held (fix_k3)"])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let text = String(decoding: try encoder.encode(sigma), as: UTF8.self)
    #expect(
      text
        == #"{"distortion":[null,0.01],"intrinsics":[0.5,null,0.25,0.75],"undetermined":{"fy":"the views' information matrix is singular","k1":"held (fix_k3)"}}"#,
      "\(text)")
  }
}
