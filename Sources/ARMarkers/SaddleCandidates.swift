import ARMath
import Foundation

/// Points where four squares of a chessboard meet (X-junctions), found by the ChESS response
/// (Bennett and Lasenby, "ChESS – Quick and Robust Detection of Chess-board Features", 2014):
/// sixteen samples on a ring about a pixel, where opposite samples agree and samples a quarter
/// turn apart differ, as they do only where dark and light alternate four times around.
extension GreyImage {
  /// The ring's sixteen offsets, radius 5 pixels, in turn order.
  private static let ring: [(x: Int, y: Int)] = (0..<16).map { k in
    let angle = Double(k) * .pi / 8
    return (Int((5 * cos(angle)).rounded()), Int((5 * sin(angle)).rounded()))
  }

  /// X-junction candidates: pixels whose ChESS response is positive, at least a tenth of the
  /// image's strongest and the largest within 3 pixels; their centres (ARScene's convention)
  /// with the response, strongest first.
  func saddleCandidates() -> [(point: SIMD2<Double>, response: Float)] {
    let r = 5
    guard width > 2 * r + 2, height > 2 * r + 2 else { return [] }
    var response = [Float](repeating: 0, count: width * height)
    let offsets = Self.ring.map { $0.y * width + $0.x }
    values.withUnsafeBufferPointer { v in
      var ring = [Float](repeating: 0, count: 16)
      for y in r..<(height - r) {
        for x in r..<(width - r) {
          let i = y * width + x
          var ringSum: Float = 0
          for k in 0..<16 {
            ring[k] = v[i + offsets[k]]
            ringSum += ring[k]
          }
          var sum: Float = 0, difference: Float = 0
          for n in 0..<4 { sum += abs(ring[n] + ring[n + 8] - ring[n + 4] - ring[n + 12]) }
          for n in 0..<8 { difference += abs(ring[n] - ring[n + 8]) }
          // The centre's mean against the ring's: an edge's centre sits at its mean, a blob's
          // does not.
          let centre = (v[i] + v[i - 1] + v[i + 1] + v[i - width] + v[i + width]) / 5
          response[i] = sum - difference - abs(ringSum - 16 * centre)
        }
      }
    }
    let strongest = response.max() ?? 0
    guard strongest > 0 else { return [] }
    var found: [(point: SIMD2<Double>, response: Float)] = []
    for y in r..<(height - r) {
      for x in r..<(width - r) {
        let value = response[y * width + x]
        guard value > 0.1 * strongest else { continue }
        var isPeak = true
        search: for dy in -3...3 {
          for dx in -3...3 where dx != 0 || dy != 0 {
            let (nx, ny) = (x + dx, y + dy)
            guard nx >= 0, ny >= 0, nx < width, ny < height else { continue }
            let other = response[ny * width + nx]
            // Ties go to the first in reading order.
            if other > value || (other == value && (dy < 0 || (dy == 0 && dx < 0))) {
              isPeak = false
              break search
            }
          }
        }
        if isPeak { found.append((SIMD2(Double(x) + 0.5, Double(y) + 0.5), value)) }
      }
    }
    return found.sorted { $0.response > $1.response }
  }
}
