import ARMath

extension SplitMix64 {
  /// Clutter through a 3 × 2.4 × 3 m room (x and z in ±1.5 m, y from 0 to 2.4 m), as scans
  /// have it: half the points spread evenly (noise, stray depth), half in a dozen blobs a few
  /// decimetres across (furniture, people).
  public mutating func roomClutter(_ count: Int) -> [SIMD3<Double>] {
    func inRoom() -> SIMD3<Double> {
      [
        Double.random(in: -1.5...1.5, using: &self), Double.random(in: 0...2.4, using: &self),
        Double.random(in: -1.5...1.5, using: &self),
      ]
    }
    let blobs = (0..<12).map { _ in (center: inRoom(), size: Double.random(in: 0.05...0.3, using: &self)) }
    return (0..<count).map { k in
      guard k % 2 == 1 else { return inRoom() }
      let blob = blobs[below(blobs.count)]
      return blob.center + blob.size * SIMD3(gaussian(), gaussian(), gaussian())
    }
  }
}
