import RealModule

extension RandomNumberGenerator {
  /// A standard normal sample (Box–Muller, one of the pair): simulated sensor noise. With a
  /// seeded generator (``SplitMix64``) the sequence is the same on every run.
  public mutating func gaussian() -> Double {
    let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let u2 = Double.random(in: 0..<1, using: &self)
    return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * .pi * u2)
  }
}
