import Testing

@testable import ARMesh

/// Vectors held as a file's floats read as the same doubles as those floats widened, and say
/// whether they are finite from the copy that made them.
@Suite("Vector3Array")
struct Vector3ArrayTests {
  static func held(_ floats: [Float]) -> Vector3Array {
    Vector3Array(floats: ArraySlice(floats.withUnsafeBytes { Array($0) }), offset: 0, count: floats.count / 3)
  }

  /// Where the vectors' storage starts (nil for none).
  static func address(_ v: Vector3Array) -> UnsafeRawPointer? {
    switch v.storage {
    case .doubles(let d): d.withUnsafeBytes { $0.baseAddress }
    case .floats(let f, _): f.withUnsafeBytes { $0.baseAddress }
    }
  }

  @Test("floats read as their exact doubles, by index, as an array and through a reader")
  func floatsReadAsDoubles() {
    let floats: [Float] = [1, -2.5, 0x1p-149, .greatestFiniteMagnitude, 0.1, -0.0]
    let v = Self.held(floats)
    let expected = [
      SIMD3<Double>(1, -2.5, 0x1p-149), SIMD3(Double(Float.greatestFiniteMagnitude), Double(Float(0.1)), 0),
    ]
    #expect(v.count == 2 && Array(v) == expected && v.doubles == expected)
    #expect(v[1].z.sign == .minus)
    #expect(v.withReader { read in [read(0), read(1)] } == expected)
    #expect(v.allFinite)
    #expect(v.withUnsafeDoubles { Array($0) } == expected)
  }

  @Test("floats left in a file's bytes at any offset, to the bytes' very end, read alike", arguments: 0..<5)
  func floatsInFileBytes(offset: Int) {
    let floats: [Float] = [1, 2, 3, -4, 0.5, 6e30]
    let file = ArraySlice([UInt8](repeating: 0xEE, count: 7) + floats.withUnsafeBytes { Array($0) })
      .dropFirst(7 - offset)
    let expected = [SIMD3<Double>(1, 2, 3), SIMD3(-4, 0.5, Double(Float(6e30)))]
    // Kept where they are (four bytes follow), or copied (the floats end the bytes).
    let kept = Vector3Array(floats: file + [9, 9, 9, 9], offset: offset, count: 2)
    let copied = Vector3Array(floats: file, offset: offset, count: 2)
    #expect(Array(kept) == expected && Array(copied) == expected)
    #expect(kept.doubles == expected && copied.withReader { [$0(0), $0(1)] } == expected)
    #expect(Vector3Array(floats: file, offset: offset + 12, count: 1).doubles == [expected[1]])
  }

  @Test("a float that is not finite, anywhere among the three, is found as the floats are taken")
  func nonFiniteFound() {
    for bad in [Float.infinity, -.infinity, .nan, .signalingNaN] {
      for k in 0..<6 {
        var floats: [Float] = [1, 2, 3, 4, 5, 6]
        floats[k] = bad
        #expect(!Self.held(floats).allFinite, "\(bad) at \(k)")
      }
    }
    #expect(Self.held([]).allFinite && Self.held([]).isEmpty)
  }

  @Test("changed in place as doubles, the storage becomes doubles")
  func modify() {
    var v = Self.held([1, 2, 3])
    v.modifyDoubles { $0[0] += SIMD3(0.5, 0, 0) }
    #expect(Array(v) == [SIMD3(1.5, 2, 3)])
    guard case .doubles = v.storage else {
      Issue.record("still floats after a change")
      return
    }
    let empty: Vector3Array = []
    #expect(empty.isEmpty && empty.allFinite && empty.doubles.isEmpty)
  }
}
