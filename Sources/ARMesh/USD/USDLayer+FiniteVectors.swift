extension USDLayer {
  // The vector arrays a layer found finite as it decoded them (``finiteVectors``): a mesh's
  // points among them are not read again from memory to be checked.

  /// Whether `vectors` is an array this layer found finite as it decoded it (false for any
  /// other array, finite or not: the caller then checks it).
  func isKnownFinite(_ vectors: [SIMD3<Double>]) -> Bool {
    guard let key = Self.storageKey(vectors) else { return false }
    return finiteVectors[key]?.count == vectors.count
  }

  /// Notes `vectors`, just decoded and found finite, for ``isKnownFinite(_:)``.
  mutating func noteFinite(_ vectors: [SIMD3<Double>]) {
    if let key = Self.storageKey(vectors) { finiteVectors[key] = vectors }
  }

  /// Takes the arrays `other` found finite as this layer's too (its values are grafted here).
  mutating func noteFinite(of other: USDLayer) {
    finiteVectors.merge(other.finiteVectors) { mine, _ in mine }
  }

  /// The address of `vectors`' storage; nil for an empty array (which may have none).
  private static func storageKey(_ vectors: [SIMD3<Double>]) -> UInt? {
    guard !vectors.isEmpty else { return nil }
    return vectors.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }
}
