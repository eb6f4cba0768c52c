import RealModule

extension MarkerDictionary {
  /// The bits a detector may correct at most: OpenCV's default for its dictionaries (its
  /// `maxCorrectionBits` times `errorCorrectionRate` 0.6, rounded down) and the AprilTag
  /// library's for its families (2 bits, `apriltag_detector_add_family`), never more than the
  /// family's minimum distance allows.
  public var correctionLimit: Int {
    minimumDistance == nil ? Int(Double(correctableBits) * 0.6) : Swift.min(2, correctableBits)
  }

  /// The chance that a random pattern of cells matches one of the codes, in one of its four
  /// turns, within `bits` bit errors: how often a square that is not a marker would be read
  /// as one if `bits` corrections were accepted on the cells alone.
  public func chanceOfFalseMatch(within bits: Int) -> Double {
    let cells = size * size
    var near = 0.0, choose = 1.0
    for k in 0...Swift.max(0, Swift.min(bits, cells)) {
      if k > 0 { choose *= Double(cells - k + 1) / Double(k) }
      near += choose
    }
    return Swift.min(1, Double(codes.count) * 4 * near / Double.pow(2, Double(cells)))
  }

  /// The bits corrected on the cells' evidence alone, whatever their confidence: the most with
  /// a chance of a false match (``chanceOfFalseMatch(within:)``) of at most 10⁻⁴, up to
  /// ``correctionLimit``. More (up to the limit) are accepted only where every corrected cell
  /// was near its threshold.
  var safeCorrections: Int {
    var bits = 0
    while bits < correctionLimit, chanceOfFalseMatch(within: bits + 1) <= 1e-4 { bits += 1 }
    return bits
  }

  /// Whether even an exact match is likely by chance (above 10⁻⁵ a candidate: 16h5, the 4×4
  /// dictionaries, 5×5 of 250 ids or more, ArUco's original): such a marker is accepted only
  /// with refined corners and clearly separated cells.
  var isWeak: Bool { chanceOfFalseMatch(within: 0) > 1e-5 }
}
