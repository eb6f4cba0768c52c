import ARMath
import RealModule

/// Hard- and soft-iron calibration of a 3-axis magnetometer from raw samples taken while the
/// device is turned through many orientations.
///
/// Raw readings of a constant field lie on an ellipsoid `(m − c)ᵀ A (m − c) = 1`: the centre `c`
/// is the hard-iron offset (magnetised parts of the phone), the shape `A` the soft-iron distortion
/// and scale errors. The fit is the algebraic least-squares quadric through the centred samples
/// (nine unknowns, Householder QR), accepted only if it is an ellipsoid. Samplings that cannot
/// determine an ellipsoid are refused: all samples in one plane (the phone only turned flat on a
/// table) or bunched to one side (a cap rather than the sphere of directions).
public struct MagnetometerCalibration: Hashable, Sendable {
  /// The hard-iron offset, in the samples' units (usually µT).
  public var hardIron: SIMD3<Double>
  /// The soft-iron correction: `corrected = softIron · (raw − hardIron)` lies on a sphere of
  /// radius ``fieldStrength``.
  public var softIron: Matrix3<Double>
  /// The field magnitude the corrected samples have, in the samples' units: the ellipsoid's
  /// geometric-mean radius unless one was given.
  public var fieldStrength: Double
  /// Root-mean-square distance of the corrected samples from the sphere, in the samples' units.
  public var residualRMS: Double

  /// Largest mean resultant length of the sample directions (seen from the fitted centre) that
  /// still counts as covering the sphere: a hemisphere has 0.5, a full sphere about 0.
  public static let maximumBunching = 0.6
  /// Smallest ratio of the samples' least to greatest spread (standard deviations along the
  /// principal axes) that still counts as three-dimensional.
  public static let minimumFlatness = 0.05

  /// Fits `samples`; `fieldStrength`, if known (the WMM's total intensity), scales the result.
  public init(samples: [SIMD3<Double>], fieldStrength knownStrength: Double? = nil) throws(GeoError) {
    guard samples.count >= 12 else {
      throw .degenerate("magnetometer calibration needs at least 12 samples, got \(samples.count)")
    }
    guard samples.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else {
      throw .degenerate("magnetometer samples must be finite")
    }
    let mean = samples.reduce(.zero, +) / Double(samples.count)
    // Planarity: the principal spreads of the samples.
    var scatter = Matrix3<Double>(diagonal: .zero)
    for s in samples {
      let d = s - mean
      scatter = scatter + Matrix3(d * d.x, d * d.y, d * d.z)
    }
    let spreadSquared = SymmetricEigen3(scatter).values
    let largest = max(0, spreadSquared.z).squareRoot(), smallest = max(0, spreadSquared.x).squareRoot()
    guard largest > 0, smallest / largest >= Self.minimumFlatness else {
      throw .degenerate(
        "magnetometer samples lie in one plane (spread ratio \(largest > 0 ? smallest / largest : 0)): turn the device about all three axes"
      )
    }
    // Quadric x̂ᵀ M x̂ + 2 vᵀ x̂ = 1 in coordinates centred and scaled by the spread.
    let scale = largest / Double(samples.count).squareRoot()
    var design = DenseMatrix<Double>(rows: samples.count, columns: 9)
    for (i, s) in samples.enumerated() {
      let p = (s - mean) / scale
      let row = [
        p.x * p.x, p.y * p.y, p.z * p.z, 2 * p.y * p.z, 2 * p.x * p.z, 2 * p.x * p.y, 2 * p.x, 2 * p.y,
        2 * p.z,
      ]
      for (j, value) in row.enumerated() { design[i, j] = value }
    }
    guard let qr = HouseholderQR(design), qr.isFullRank,
      let q = qr.solve([Double](repeating: 1, count: samples.count))
    else { throw .degenerate("magnetometer samples do not determine an ellipsoid") }
    let m = Matrix3<Double>(SIMD3(q[0], q[5], q[4]), SIMD3(q[5], q[1], q[3]), SIMD3(q[4], q[3], q[2]))
    guard let mInverse = m.inverse else { throw .degenerate("magnetometer fit is singular") }
    let centre = -(mInverse * SIMD3(q[6], q[7], q[8]))
    let k = 1 + centre.dot(m * centre)
    let eigen = SymmetricEigen3(m)
    guard k > 0, eigen.values.x > 0 else {
      throw .degenerate(
        "magnetometer samples fit a hyperboloid, not an ellipsoid: the sampling is too narrow")
    }
    // A = M / k; its square root maps the ellipsoid to the unit sphere.
    let radii = (SIMD3(repeating: k) / eigen.values).squareRoot() * scale
    let geometricMean = Double.pow(radii[0] * radii[1] * radii[2], 1.0 / 3)
    let strength = knownStrength ?? geometricMean
    let v = eigen.vectors
    let inverseRadii = Matrix3(diagonal: SIMD3(strength / radii[0], strength / radii[1], strength / radii[2]))
    let soft = v * inverseRadii * v.transposed
    let hard = mean + centre * scale

    // Coverage: directions of the corrected samples from the centre.
    var resultant = SIMD3<Double>.zero
    var squaredError = 0.0
    for s in samples {
      let corrected = soft * (s - hard)
      let length = corrected.length
      if length > 0 { resultant += corrected / length }
      squaredError += (length - strength) * (length - strength)
    }
    let bunching = resultant.length / Double(samples.count)
    guard bunching <= Self.maximumBunching else {
      throw .degenerate(
        "magnetometer samples are bunched to one side (mean resultant \(bunching) > \(Self.maximumBunching)): turn the device through all directions"
      )
    }
    hardIron = hard
    softIron = soft
    fieldStrength = strength
    residualRMS = (squaredError / Double(samples.count)).squareRoot()
  }

  /// A raw sample corrected for hard and soft iron.
  public func corrected(_ raw: SIMD3<Double>) -> SIMD3<Double> { softIron * (raw - hardIron) }
}
